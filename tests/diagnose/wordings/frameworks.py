"""The wordings training frameworks really print about their own checks (Megatron-LM /
megatron-core, Megatron-Bridge, torchtitan, torchtune, fairseq, composer) and about numerics
(Lightning's, transformers', DeepSpeed's and fairseq's NaN and loss-scale checks, torch's
anomaly detection and GradScaler), diagnosed as their rules, and the healthy lines next to
them that must not be.  Each text is copied from the library's source at the release named
beside it."""

from __future__ import annotations

from wordings import TRACE, raised

MCORE = "/usr/local/lib/python3.11/site-packages/megatron/core"

WORDINGS = [
    # older LLaMA-Factory (llmtuner) template.py get_template_and_fix_tokenizer: an assert
    ("Traceback (most recent call last):\n  File \"/data/LLaMA-Factory/src/llmtuner/extras/"
     "template.py\", line 82, in get_template_and_fix_tokenizer\n    assert template is not "
     "None, \"Template {} does not exist.\".format(name)\nAssertionError: Template qwen2 does "
     "not exist.\n", "llamafactory-template-unknown"),
    # LLaMA-Factory 0.9.0/0.9.1 src/llamafactory/data/mm_plugin.py process_messages: a
    # multimodal template with no processor (before _validate_input's "Processor was not found")
    ("Traceback (most recent call last):\n  File \"/data/LLaMA-Factory/src/llamafactory/data/"
     "processors/supervised.py\", line 47, in _encode_supervised_example\n    messages = "
     "template.mm_plugin.process_messages(prompt + response, images, processor)\n  File \"/data/"
     "LLaMA-Factory/src/llamafactory/data/mm_plugin.py\", line 244, in process_messages\n    "
     "image_processor: \"BaseImageProcessor\" = getattr(processor, \"image_processor\")\n"
     "AttributeError: 'NoneType' object has no attribute 'image_processor'\n",
     "llamafactory-processor-not-found"),
    # the video form of the image/token count check (transformers models/qwen2_vl)
    ("ValueError: Video features and video tokens do not match: tokens: 0, features 1176\n",
     "vlm-image-features-tokens-mismatch"),
    # transformers models/llava modeling_llava.py (4.4x), no <image> in the prompt
    ("ValueError: Number of images does not match number of special image tokens in the input "
     "text. Got 0 image tokens in the text but 256 tokens from image embeddings.\n",
     "vlm-image-features-tokens-mismatch"),
    # the older form: transformers modeling_qwen2_vl.py forward scattering the features
    ("[rank1]:   File \"/venv/lib/python3.10/site-packages/transformers/models/qwen2_vl/"
     "modeling_qwen2_vl.py\", line 1682, in forward\n[rank1]:     inputs_embeds[image_mask] = "
     "image_embeds\n[rank1]: RuntimeError: shape mismatch: value tensor of shape [49, 1536] "
     "cannot be broadcast to indexing result of shape [0, 1536]\n",
     "vlm-image-features-tokens-mismatch"),
    # verl's ResourcePoolManager._check_resource_available (ray_trainer.py); ROLL's node check
    ("ValueError: Total available GPUs 16.0 is less than total desired GPUs 32\n",
     "ray-not-enough-gpus"),
    ("AssertionError: The Ray clusters(ray_num_nodes: 0) cannot meet the required number of "
     "nodes (`num_nodes`2).\n", "ray-not-enough-gpus"),
    # NeMo RL's RayVirtualCluster._init_placement_groups (distributed/virtual_cluster.py)
    (TRACE + "ValueError: Not enough GPUs available. Requested 16 GPUs, but only 8 are available "
     "in the cluster.\n", "ray-not-enough-gpus"),
    # nanoGPT's train.py (and its many copies): the script's own check, a bare AssertionError
    # under the source line of the frame that raised
    ("Traceback (most recent call last):\n  File \"/work/train.py\", line 94, in <module>\n"
     "    assert gradient_accumulation_steps % ddp_world_size == 0\nAssertionError\n",
     "batch-size-mismatch"),
    ("Traceback (most recent call last):\n  File \"/work/pretrain.py\", line 51, in main\n"
     "    assert args.global_batch_size % (args.micro_batch_size * world_size) == 0, "
     "\"global batch size must divide\"\nAssertionError: global batch size must divide\n",
     "batch-size-mismatch"),
    # vLLM's cumem allocator waking a sleeping engine (csrc/cumem_allocator.cpp)
    ("RuntimeError: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:62\n",
     "cuda-oom"),
    # Coqui TTS 0.6-0.22 (TTS/utils/training.py, trainer_utils.py) and the trainer package:
    # a plain python run that sees several GPUs
    (TRACE + "RuntimeError:  [!] 2 active GPUs. Define the target GPU by `CUDA_VISIBLE_DEVICES`. "
     "For multi-gpu training use `TTS/bin/distribute.py`.\n", "not-launched"),
    (TRACE + "RuntimeError:  [!] 3 active GPUs. Define the target GPU by `CUDA_VISIBLE_DEVICES`. "
     "For multi-gpu training use `python -m trainer.distribute`.\n", "not-launched"),
    # --- Megatron: CUDA_DEVICE_MAX_CONNECTIONS ---
    # megatron-core 0.19.2 megatron/training/arguments.py (TP or CP before Blackwell)
    (raised("args = parse_args(extra_args_provider, ignore_unknown_args)",
             "AssertionError: Using tensor model parallelism or context parallelism require "
             "setting the environment variable CUDA_DEVICE_MAX_CONNECTIONS to 1"),
     "megatron-device-max-connections"),
    # megatron-core 0.19.2 megatron/training/arguments.py, --use-megatron-fsdp
    (raised("validate_args(args, defaults)",
             "AssertionError: FSDP requires CUDA_DEVICE_MAX_CONNECTIONS > 1 or unset."),
     "megatron-device-max-connections-not-one"),
    # Megatron-Bridge 0.6.2 training/config.py
    (raised("cfg.validate()",
             "AssertionError: FSDP requires CUDA_DEVICE_MAX_CONNECTIONS > 1 or unset."),
     "megatron-device-max-connections-not-one"),
    # megatron-core 0.19.2 megatron/training/arguments.py, --use-torch-fsdp2
    (raised("validate_args(args, defaults)",
             "AssertionError: FSDP always requires CUDA_DEVICE_MAX_CONNECTIONS value large "
             "than one"),
     "megatron-device-max-connections-not-one"),
    # megatron-core 0.12.0 .. 0.19.2 parallel_state.py, the UCC backend
    (raised("parallel_state.initialize_model_parallel(tp, pp, use_tp_pp_dp_mapping=True)",
             "AssertionError: UCC-backend requires CUDA_DEVICE_MAX_CONNECTIONS > 1"),
     "megatron-device-max-connections-not-one"),
    # --- Megatron: parallel sizes ---
    # megatron-core 0.6.0 / 0.8.0 parallel_state.py
    (raised("parallel_state.initialize_model_parallel(4, 1)",
             "RuntimeError: world_size (6) is not divisible by tensor_model_parallel_size (4) x "
             "pipeline_model_parallel_size (1) x context_parallel_size (1)"),
     "tp-size-indivisible"),
    # megatron-core 0.10.0 .. 0.19.2 parallel_state.py
    (raised("parallel_state.initialize_model_parallel(4, 1)",
             "RuntimeError: world_size (6) is not divisible by 4"),
     "tp-size-indivisible"),
    # megatron-core 0.19.2 megatron/training/arguments.py
    (raised("args = parse_args(extra_args_provider, ignore_unknown_args)",
             "AssertionError: world size (6) is not divisible by total_model_size "
             "(total_model_size=4)"),
     "tp-size-indivisible"),
    # vLLM 0.3 .. 0.11 gptq.py / awq.py / gptq_marlin.py create_weights: a rank's slice of a
    # quantized weight that is not a whole number of quantization groups
    (raised("llm = LLM(model, quantization='gptq', tensor_parallel_size=4)",
             "ValueError: The input size is not aligned with the quantized weight shape. This "
             "can be caused by too large tensor parallel size."),
     "tp-size-indivisible"),
    (raised("llm = LLM(model, quantization='awq', tensor_parallel_size=8)",
             "ValueError: The output size is not aligned with the quantized weight shape. This "
             "can be caused by too large tensor parallel size."),
     "tp-size-indivisible"),
    # megatron-core 0.6.0 .. 0.19.2 utils.ensure_divisibility (heads over the TP size)
    (TRACE + "    model = GPTModel(config, transformer_layer_spec, vocab_size, max_seq_len)\n"
     f"  File \"{MCORE}/transformer/attention.py\", line 168, in __init__\n"
     "    self.num_attention_heads_per_partition = divide(self.config.num_attention_heads, "
     "world_size)\n"
     f"  File \"{MCORE}/utils.py\", line 399, in divide\n"
     "    ensure_divisibility(numerator, denominator)\n"
     f"  File \"{MCORE}/utils.py\", line 393, in ensure_divisibility\n"
     "    assert numerator % denominator == 0, \"{} is not divisible by {}\".format("
     "numerator, denominator)\n"
     "AssertionError: 28 is not divisible by 8\n",
     "tp-size-indivisible"),
    # ColossalAI (nn/layer/utils/common.py, legacy/nn/layer/utils/common.py) divide(): the
    # tensor-parallel share of the hidden size over the head size
    (TRACE + "  File \"/opt/conda/lib/python3.8/site-packages/titans/layer/attention/"
     "gpt_attention.py\", line 49, in forward\n    num_attention_heads = divide(all_head_size, "
     "self.attention_head_size)\n  File \"/opt/conda/lib/python3.8/site-packages/colossalai/"
     "legacy/nn/layer/utils/common.py\", line 50, in divide\n    assert numerator % denominator "
     "== 0, \\\nAssertionError: 160 is not divisible by 128\n",
     "tp-size-indivisible"),
    # megatron-core 0.15.0 transformer/transformer_block.py
    (raised("self.decoder = TransformerBlock(config=self.config, spec=transformer_layer_spec)",
             "AssertionError: num_layers should be divisible by pipeline_model_parallel_size"),
     "tp-size-indivisible"),
    # megatron-core 0.10.0 / 0.12.0 parallel_state.py, expert parallelism
    (raised("parallel_state.initialize_model_parallel(1, 1, expert_model_parallel_size=16)",
             "RuntimeError: decoder world_size (8) is not divisible by "
             "expert_tensor_model_pipeline_parallel size (16)"),
     "expert-parallel-size-indivisible"),
    # megatron-core 0.15.0 / 0.19.2 parallel_state.py
    (raised("parallel_state.initialize_model_parallel(1, 1, expert_model_parallel_size=16)",
             "RuntimeError: world_size (8) is not divisible by "
             "expert_tensor_model_pipeline_parallel size (16)"),
     "expert-parallel-size-indivisible"),
    # megatron-core 0.6.0 / 0.8.0 parallel_state.py
    (raised("parallel_state.initialize_model_parallel(1, 1, expert_model_parallel_size=4)",
             "RuntimeError: data_parallel_size (6) is not divisible by "
             "expert_model_parallel_size "),
     "expert-parallel-size-indivisible"),
    # torchtune 0.6.1 training/_distributed.py prepare_mha_for_tp
    (raised("model = training.prepare_mha_for_tp(model, tp_mesh)",
             "ValueError: Number of KV heads (8) must be divisible by tensor parallel size (3)."),
     "tp-size-indivisible"),
    # torchtitan 0.1.0 / 0.3.0 distributed/parallel_dims.py
    (raised("parallel_dims = ParallelDims(dp_shard=-1, dp_replicate=1, cp=1, tp=3, pp=1, "
             "ep=1, etp=1, world_size=8)",
             "AssertionError: Invalid parallel dims: dp_replicate(1) * dp_shard(2) * cp(1) * "
             "tp(3) * pp(1) != WORLD_SIZE(8)"),
     "device-mesh-too-big"),
    # --- initialising twice ---
    # torchtune 0.3.0 / 0.6.1 training/_distributed.py init_distributed
    (raised("training.init_distributed(backend=\"nccl\")",
             "RuntimeError: torch.distributed already initialized."),
     "process-group-initialized-twice"),
    # megatron-core 0.6.0 .. 0.19.2 parallel_state.initialize_model_parallel, second call
    (raised("parallel_state.initialize_model_parallel(2, 1)",
             "AssertionError: data parallel group is already initialized"),
     "process-group-initialized-twice"),
    # --- Megatron dist_checkpointing ---
    # megatron-core 0.6.0 serialization.py, 0.10.0 .. 0.19.2 validation.py
    (raised("state_dict = dist_checkpointing.load(sharded_state_dict, checkpoint_name)",
             "megatron.core.dist_checkpointing.core.CheckpointingException: /ckpt/iter_0001000 "
             "is not a distributed checkpoint"),
     "sharded-checkpoint-not-shared"),
    (raised("state_dict = dist_checkpointing.load(sharded_state_dict, checkpoint_name)",
             "megatron.core.dist_checkpointing.core.CheckpointingException: Checkpoint "
             "directory /local/ckpt/iter_0001000 does not exist"),
     "sharded-checkpoint-not-shared"),
    # megatron-core 0.10.0 .. 0.19.2 strategies/common.py
    (raised("common_state_dict = common_strategy.load_common(checkpoint_dir)",
             "megatron.core.dist_checkpointing.core.CheckpointingException: Common file "
             "/local/ckpt/iter_0001000/common.pt does not exist"),
     "sharded-checkpoint-not-shared"),
    # --- ultralytics / YOLOv5 device selection ---
    # YOLOv5 v7.0 utils/torch_utils.py select_device
    (raised("assert torch.cuda.is_available() and torch.cuda.device_count() >= "
             "len(devices.replace(',', '')), \\",
             "AssertionError: Invalid CUDA '--device 0,1' requested, use '--device cpu' or pass "
             "valid CUDA device(s)"),
     "no-cuda-device"),  # (no CPU-only torch or fewer GPUs than asked: it does not say which)
    # ultralytics 8.3 utils/torch_utils.py select_device
    (raised("raise ValueError(",
             "ValueError: Invalid CUDA 'device=0,1' requested. Use 'device=cpu' or pass valid "
             "CUDA device(s) if available, i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU.")
     + "torch.cuda.is_available(): False\ntorch.cuda.device_count(): 0\n",
     "torch-without-cuda"),
    # the same on a CUDA torch that sees fewer GPUs than asked (device=0,1 on a one-T4 box)
    (raised("raise ValueError(",
             "ValueError: Invalid CUDA 'device=0,1' requested. Use 'device=cpu' or pass valid "
             "CUDA device(s) if available, i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU.")
     + "\ntorch.cuda.is_available(): True\ntorch.cuda.device_count(): 1\n"
       "os.environ['CUDA_VISIBLE_DEVICES']: None\n",
     "no-cuda-device"),
    # --- NaN / Inf ---
    # detectron2 0.6 engine/train_loop.py SimpleTrainer._write_metrics
    (raised("raise FloatingPointError(",
             "FloatingPointError: Loss became infinite or NaN at iteration=59!")
     + "loss_dict = {'loss_cls': nan, 'loss_box_reg': nan, 'loss_rpn_cls': 0.69}\n",
     "nan-loss"),
    # detectron2 0.6 modeling/box_regression.py Box2BoxTransform.apply_deltas
    (raised("assert torch.isfinite(deltas).all().item(), \"Box regression deltas become "
             "infinite or NaN!\"",
             "AssertionError: Box regression deltas become infinite or NaN!"),
     "nan-loss"),
    # megatron-core 0.8.0 distributed/param_and_grad_buffer.py
    (raised("self.finish_grad_sync()",
             "AssertionError: Rank 3: found NaN in local grad norm in backward pass before "
             "data-parallel communication collective. Device: 3, node: node-017"),
     "nan-loss"),
    # megatron-core 0.12.0 .. 0.19.2 rerun_state_machine (reruns disabled)
    (raised("bucket_group.start_grad_sync()",
             "RuntimeError: Rank 0, node node-017, device 0, iteration 120: Unexpected result "
             "tensor(nan, device='cuda:0') (message='found NaN in local grad norm for bucket #0 "
             "in backward pass before data-parallel communication collective')"),
     "nan-loss"),
    # Megatron-Bridge 0.6.2 training/losses.py
    (raised("loss = loss_func(output_tensor)",
             "RuntimeError: Rank 0, node node-017, device 0, iteration 55: Unexpected result "
             "tensor(inf, device='cuda:0') (message='found Inf in local forward loss "
             "calculation')"),
     "nan-loss"),
    # Megatron-Bridge 0.6.2 diffusion/models/common/dgpt_step.py
    (raised("loss = self.loss_func(output_tensor)",
             "RuntimeError: Rank 0, node node-017, device 0, iteration 9: Unexpected result "
             "tensor(nan, device='cuda:0') (message='found NaN in diffusion loss')"),
     "nan-loss"),
    # torch 2.13 (and 1.x) anomaly detection, torch/csrc/autograd/engine.cpp
    (raised("loss.backward()",
             "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th "
             "output."),
     "nan-loss"),
    (raised("loss.backward()",
             "RuntimeError: Function 'torch::autograd::CppNode<FusedRMSNorm>' returned nan "
             "values in its 1th output."),
     "nan-loss"),
    # fairseq 0.12.2 trainer.py (one GPU, no --amp)
    (raised("log_output = trainer.train_step(samples)",
             "FloatingPointError: gradients are Nan/Inf"),
     "nan-loss"),
    # Lightning 1.9.5 / 2.2.0 / 2.6.0 loops/utilities.py check_finite_loss (detect_anomaly=True)
    (raised("trainer.fit(model, datamodule=dm)",
             "ValueError: The loss returned in `training_step` is nan."),
     "nan-loss"),
    (raised("trainer.fit(model, datamodule=dm)",
             "ValueError: The loss returned in `training_step` is inf."),
     "nan-loss"),
    # pytorch_lightning 1.9.5 utilities/finite_checks.py detect_nan_parameters
    (raised("detect_nan_parameters(model)",
             "ValueError: Detected nan and/or inf values in `encoder.layer.0.weight`. Check "
             "your forward pass for numerically unstable operations."),
     "nan-loss"),
    # transformers 4.30.2 .. 4.57.1 debug_utils.py (--debug underflow_overflow)
    (raised("trainer.train()",
             "ValueError: DebugUnderflowOverflow: inf/nan detected, aborting as there is no "
             "point running further. Please scroll up above this traceback to see the "
             "activation values prior to this event."),
     "nan-loss"),
    # composer (mosaicml) 0.17.0 .. 0.32.1 callbacks/nan_monitor.py
    (raised("trainer.fit()", "RuntimeError: Train loss contains a NaN."), "nan-loss"),
    (raised("trainer.fit()", "RuntimeError: Train loss ce_loss contains a NaN."), "nan-loss"),
    # torchtitan 0.3.0 trainer.py
    (raised("trainer.train()",
             "RuntimeError: Loss is not finite (global_avg_loss=nan) at step 212. Stopping "
             "training."),
     "nan-loss"),
    # --- loss scale ---
    # fairseq 0.12.2 optim/dynamic_loss_scaler.py
    (raised("log_output = trainer.train_step(samples)",
             "FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably "
             "exploding. Try lowering the learning rate, using gradient clipping or increasing "
             "the batch size."),
     "fp16-loss-scale"),
    # fairseq 0.12.2 optim/amp_optimizer.py
    (raised("log_output = trainer.train_step(samples)",
             "FloatingPointError: AMP: Minimum loss scale reached (0.0001). Your loss is "
             "probably exploding. Try restarting training or use fp32. 5e-05"),
     "fp16-loss-scale"),
    # DeepSpeed 0.14.4 / 0.17.6 runtime/fp16/loss_scaler.py
    (raised("model_engine.step()",
             "Exception: Current loss scale already at minimum - cannot decrease scale anymore. "
             "Exiting run."),
     "fp16-loss-scale"),
    # --- GradScaler (torch 2.13 amp/grad_scaler.py) ---
    (raised("scaler.step(optimizer)",
             "AssertionError: No inf checks were recorded for this optimizer."),
     "grad-scaler-no-grads"),
    (raised("scaler.step(optimizer)", "ValueError: Attempting to unscale FP16 gradients."),
     "amp-fp16-params"),
    # megatron/core/tensor_parallel/layers.py (ColumnParallelLinear.__init__, core 0.5 ..):
    # --gradient-accumulation-fusion (on by default) and no apex CUDA extension
    (raised("super().__init__(",
            "RuntimeError: ColumnParallelLinear was called with gradient_accumulation_fusion "
            "set to True but the custom CUDA extension fused_weight_gradient_mlp_cuda module is "
            "not found. To use gradient_accumulation_fusion you must install APEX with "
            "--cpp_ext and --cuda_ext. For example: pip install --global-option=\"--cpp_ext\" "
            "--global-option=\"--cuda_ext .\" Note that the extension requires CUDA>=11. "
            "Otherwise, you must turn off gradient accumulation fusion."),
     "apex-without-extensions"),
    # kohya sd-scripts with its rich logger: the same "no data" line, wrapped in columns
    ("                    INFO     make buckets                          train_util.py:859\n"
     "                    ERROR    No data found. Please verify arguments (train_data_dir must be "
     "the      train_network.py:212\n                             parent of folders with images)\n",
     "kohya-no-training-images"),
    # SimpleTuner's releases of 2023-24 (helpers/data_backend/factory.py, train_sdxl.py):
    # the same check without the dataset's id
    ("Traceback (most recent call last):\n  File \"/SimpleTuner/train_sdxl.py\", line 420, in "
     "main\n    raise Exception(\nException: No images were discovered by the bucket manager "
     "in the dataset.\n", "simpletuner-no-images-discovered"),
    # kohya sd-scripts anima_train_network.py (cache_supports_dropout=True): caption dropout
    # allowed with cached outputs, so left out of the message
    ("Traceback (most recent call last):\n  File \"/sd-scripts/anima_train_network.py\", line "
     "60, in assert_extra_args\n    assert train_dataset_group.is_text_encoder_output_cacheable(\n"
     "AssertionError: when caching Text Encoder output, shuffle_caption, token_warmup_step or "
     "caption_tag_dropout_rate cannot be used\n", "kohya-text-encoder-cache-caption-augment"),

    # detectron2 data/build.py get_detection_dataset_dicts: every image dropped by
    # DATALOADER.FILTER_EMPTY_ANNOTATIONS (the raw records were there)
    ("Traceback (most recent call last):\n  File \"/detectron2/detectron2/data/build.py\", "
     "line 269, in get_detection_dataset_dicts\n    assert len(dataset_dicts), \"No valid data "
     "found in {}.\".format(\",\".join(names))\nAssertionError: No valid data found in "
     "my_dataset_train.\n", "detectron2-dataset-empty"),
    # ultralytics 8.x data/utils.py check_det_dataset: the raising branch (no download: script)
    (raised("raise FileNotFoundError(m)",
             "FileNotFoundError: \nDataset 'data.yaml' images not found ⚠️, missing path "
             "'/content/datasets/valid/images'\nNote dataset download directory is "
             "'/content/datasets'. You can update this in '/root/.config/Ultralytics/"
             "settings.json'"),
     "ultralytics-dataset-path"),
    # early ultralytics 8.0: "missing paths [...]", a Note line without the settings file
    (raised("raise FileNotFoundError(m)",
             "FileNotFoundError: \nDataset 'data.yaml' images not found ⚠️, missing paths "
             "['/content/datasets/valid/images']\nNote dataset download directory is "
             "'/content/datasets'"),
     "ultralytics-dataset-path"),
]


HEALTHY = [
    # ultralytics 8.x check_det_dataset's warning where the yaml has a download: script: it
    # downloads the dataset and trains on
    "Dataset 'coco128.yaml' images not found ⚠️, missing path '/content/datasets/coco128/images/"
    "train2017'\nDownloading https://ultralytics.com/assets/coco128.zip to '/content/datasets/"
    "coco128.zip'...\nDataset download success ✅ (1.1s), saved to /content/datasets\n"
    "      1/100      2.61G      1.211      1.532      1.187        215        640: 100%|"
    "##########| 8/8\n",
    # a script's divisibility check quoted from its code, with no failure after it
    "    assert gradient_accumulation_steps % ddp_world_size == 0\n"
    "tokens per iteration will be: 491,520\n",
    # megatron-core 0.6.0 .. 0.19.2 tensor_parallel/layers.py: a warning, training goes on
    "UserWarning: When using sequence parallelism it is recommended to set the environment "
    "variable CUDA_DEVICE_MAX_CONNECTIONS to 1 for maximum speedup\n",
    # megatron-core 0.19.2 arguments.py warn_rank_0
    "WARNING: For Hopper and before, try not to use tensor model parallelism or context "
    "parallelism with overlap_moe_expert_parallel_comm. Using tensor/context model parallelism "
    "requires setting the environment variable CUDA_DEVICE_MAX_CONNECTIONS to 1 to maximize "
    "the performance.\n",
    # torchtitan 0.3.0 distributed/utils.py: it skips its own init
    "[rank0]:[titan] 2025-06-01 10:00:00,000 - root - WARNING - torch.distributed is already "
    "initialized. Skipping init_distributed.\n",
    # Megatron-LM initialize.py
    "torch distributed is already initialized, skipping initialization ...\n",
    # fairseq 0.12.2 trainer.py: an overflow the scaler handles
    "2024-03-01 10:00:00 | INFO | fairseq.trainer | NOTE: gradient overflow detected, "
    "ignoring gradient, setting loss scale to: 64.0\n",
    "2024-03-01 10:00:00 | INFO | fairseq.optim.amp_optimizer | AMP: overflow detected, "
    "setting scale to to 32768.0\n",
    # DeepSpeed 0.17.6 loss_scaler.py: a normal halving
    "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768\n",
    # megatron-core rerun_state_machine: validation switched on
    "WARNING:megatron.core.rerun_state_machine:Result validation enabled\n",
    # megatron-core parallel sizes printed at start
    "using world size: 8, data-parallel size: 2, context-parallel size: 1, tensor-model-parallel "
    "size: 4, pipeline-model-parallel size: 1\n",
    # a training log with finite losses
    "iteration 100/ 1000 | lm loss: 2.345678E+00 | loss scale: 65536.0 | grad norm: 1.234 | "
    "number of skipped iterations: 0 | number of nan iterations: 0 |\n",
    # composer NaNMonitor at start
    "composer.callbacks.nan_monitor: NaNMonitor registered\n",
]
