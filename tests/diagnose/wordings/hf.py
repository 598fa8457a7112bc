"""The Hugging Face stack's real wordings (huggingface_hub, transformers, accelerate, datasets,
evaluate, trl) across their releases, each diagnosed as its rule; and healthy near misses."""

from __future__ import annotations

from wordings import raised

TRACE = ("Traceback (most recent call last):\n"
         "  File \"/opt/venv/lib/python3.11/site-packages/train.py\", line 41, in <module>\n")
HUB = "https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json"

WORDINGS = [
    # sentencepiece 0.2.x (util / model_interface LoadModelProto): a Llama-3 tiktoken
    # tokenizer.model read as a SentencePiece model
    (TRACE + "    tok = LlamaTokenizer.from_pretrained('Meta-Llama-3-8B/original')\n  File \"/venv/"
     "lib/python3.10/site-packages/sentencepiece/__init__.py\", line 310, in LoadFromFile\n"
     "    return _sentencepiece.SentencePieceProcessor_LoadFromFile(self, arg)\nRuntimeError: "
     "Internal: could not parse ModelProto from Meta-Llama-3-8B/original/tokenizer.model\n",
     "sentencepiece-model-file-invalid"),
    # datasets >= 2.20 (load.py) for a dataset with a loading script
    (TRACE + "    ds = load_dataset(\"reuters21578\", \"ModApte\")\nValueError: The repository "
     "for reuters21578 contains custom code which must be executed to correctly load the "
     "dataset. You can inspect the repository content at https://hf.co/datasets/reuters21578."
     "\nPlease pass the argument `trust_remote_code=True` to allow custom code to be run.\n",
     "hf-trust-remote-code-required"),
    # unsloth/save.py save_to_gguf on Kaggle: the disk named as the likely cause
    (TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/unsloth/save.py\", line 1096, in "
     "save_to_gguf\nRuntimeError: Unsloth: Quantization failed for ./model-unsloth.F16.gguf\n"
     "You are in a Kaggle environment, which might be the reason this is failing.\nKaggle only "
     "provides 20GB of disk space. Merging to 16bit for 7b models use 16GB of space.\n",
     "disk-full"),
    # transformers' require_version (utils/versions.py), as LLaMA-Factory runs it for vllm
    ("Traceback (most recent call last):\n  File \"/opt/conda/lib/python3.10/site-packages/"
     "transformers/utils/versions.py\", line 44, in _compare_versions\n    raise ImportError(\n"
     "ImportError: vllm>=0.4.3,<=0.7.3 is required for a normal functioning of this module, but "
     "found vllm==0.8.1.\nTo fix: run `pip install vllm>=0.4.3,<=0.7.3` or set "
     "`DISABLE_VERSION_CHECK=1` to skip this check.\n", "library-version-skew"),
    # pydantic 2.0 raising on a pydantic-1 library's model_* field (later releases warn)
    ("Traceback (most recent call last):\n  File \"/opt/conda/bin/accelerate\", line 5, in "
     "<module>\n    from accelerate.commands.accelerate_cli import main\n  File \"/opt/conda/"
     "lib/python3.10/site-packages/some_lib/config.py\", line 40, in <module>\n    class "
     "ServeConfig(BaseModel):\nNameError: Field \"model_path\" has conflict with protected "
     "namespace \"model_\"\n", "library-version-skew"),
    # transformers 5: Trainer(tokenizer=) is gone (processing_class since 4.46); a library's
    # TrainingArguments subclass passing dispatch_batches (moved into accelerator_config)
    ("TypeError: Trainer.__init__() got an unexpected keyword argument 'tokenizer'\n",
     "trainer-argument-renamed"),
    ("TypeError: SentenceTransformerTrainingArguments.__init__() got an unexpected keyword "
     "argument 'dispatch_batches'\n", "trainer-argument-renamed"),
    # TRL: SFTConfig's max_seq_length renamed max_length
    ("TypeError: SFTConfig.__init__() got an unexpected keyword argument 'max_seq_length'\n",
     "trainer-argument-renamed"),
    # --- hf-hub-rate-limited -------------------------------------------------------------
    # huggingface_hub 1.2.0 .. 2.4.0 (utils/_http.py, hf_raise_for_status), no rate-limit headers
    (TRACE + "huggingface_hub.errors.HfHubHTTPError: \n\n429 Too Many Requests for url: "
     "https://huggingface.co/api/models/meta-llama/Llama-3.1-8B/revision/main.\n",
     "hf-hub-rate-limited"),
    # huggingface_hub 1.2.0 .. 2.4.0, with the rate-limit headers (the URL on a later line)
    (TRACE + "huggingface_hub.errors.HfHubHTTPError: \n\n429 Too Many Requests: you have reached "
     "your 'resolvers' rate limit.\nRetry after 212 seconds (0/5000 requests remaining in current "
     "300s window).\nUrl: " + HUB + ".\n", "hf-hub-rate-limited"),
    # --- model-hub-unreachable -----------------------------------------------------------
    # huggingface_hub 0.1x utils/_errors.py hf_raise_for_status: the Hub's gateway timed out
    (TRACE + "huggingface_hub.utils._errors.HfHubHTTPError: 504 Server Error: Gateway Time-out "
     "for url: https://huggingface.co/api/models/meta-llama/Llama-2-7b-hf\n",
     "model-hub-unreachable"),
    # transformers 4.51 .. 5.24 (utils/hub.py) with HF_ENDPOINT pointing at a mirror
    (TRACE + "OSError: We couldn't connect to 'https://hf-mirror.com' to load the files, and "
     "couldn't find them in the cached files.\n", "model-hub-unreachable"),
    # transformers 4.30 .. 4.45 (utils/hub.py)
    (TRACE + "OSError: We couldn't connect to 'https://hf-mirror.com' to load this file, couldn't "
     "find it in the cached files and it looks like gpt2 is not the path to a directory "
     "containing a file named config.json.\n", "model-hub-unreachable"),
    # transformers 4.21 (utils/hub.py get_from_cache)
    (TRACE + "ValueError: Connection error, and we cannot find the requested files in the cached "
     "path. Please try again or make sure your Internet connection is on.\n",
     "model-hub-unreachable"),
    # huggingface_hub 0.20 .. 2.4 (utils/_http.py, OfflineModeIsEnabled)
    (TRACE + "huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach "
     "https://huggingface.co/api/models/gpt2: offline mode is enabled. To disable it, please "
     "unset the `HF_HUB_OFFLINE` environment variable.\n", "model-hub-unreachable"),
    # datasets 2.6 .. 5.2 (load.py)
    (TRACE + "ConnectionError: Couldn't reach 'imdb' on the Hub (LocalEntryNotFoundError)\n",
     "model-hub-unreachable"),
    (TRACE + "ConnectionError: Couldn't reach the Hugging Face Hub for dataset 'imdb': "
     "Offline mode is enabled.\n", "model-hub-unreachable"),
    # datasets 2.6 .. 3.0 (file_utils.py / cache.py get_from_cache)
    (TRACE + "ConnectionError: Couldn't reach https://huggingface.co/datasets/imdb/resolve/main/"
     "README.md (ConnectTimeout(MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', "
     "port=443)\")))\n", "model-hub-unreachable"),
    # urllib3 under requests (huggingface_hub < 1.0), the LFS file host
    (TRACE + "urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='cdn-lfs.huggingface.co',"
     " port=443): Read timed out.\n", "model-hub-unreachable"),
    # requests, the Xet file host (huggingface_hub 0.32+)
    (TRACE + "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='cas-bridge.xethub.hf.co'"
     ", port=443): Max retries exceeded with url: /xet-bridge-us/abc\n", "model-hub-unreachable"),
    # --- model-hub-gated -----------------------------------------------------------------
    # huggingface_hub 0.14 .. 2.4, transformers' OSError first line cut off by the log
    ("403 Client Error. (Request ID: Root=1-65a1b2c3-0123456789abcdef)\n\nCannot access gated "
     "repo for url " + HUB + ".\n", "model-hub-gated"),
    # the Hub's own text, quoted by huggingface_hub (401: no token; 403: not approved)
    ("Access to model meta-llama/Llama-3.1-8B is restricted. You must be authenticated to access "
     "it.\n", "model-hub-gated"),
    ("Access to model meta-llama/Llama-3.1-8B is restricted and you are not in the authorized "
     "list. Visit https://huggingface.co/meta-llama/Llama-3.1-8B to ask for access.\n",
     "model-hub-gated"),
    # datasets 3.0 .. 5.2 (load.py)
    (TRACE + "datasets.exceptions.DatasetNotFoundError: Dataset 'bigcode/the-stack' is a gated "
     "dataset on the Hub. You must be authenticated to access it.\n", "model-hub-gated"),
    # transformers 4.38 .. 5.24 (utils/hub.py has_file)
    (TRACE + "OSError: meta-llama/Llama-3.1-8B is a gated repository. Make sure to request access "
     "at https://huggingface.co/meta-llama/Llama-3.1-8B and pass a token having permission to "
     "this repo either by logging in with `huggingface-cli login` or by passing `token=<your_token>`"
     ".\n", "model-hub-gated"),
    # --- deepspeed-prepare-no-dataloader: accelerate 0.27 .. 1.15 (accelerator.py) --------
    (TRACE + "ValueError: When using DeepSpeed, `accelerate.prepare()` requires you to pass at "
     "least one of training or evaluation dataloaders with `batch_size` attribute returning an "
     "integer value or alternatively set an integer value in `train_micro_batch_size_per_gpu` "
     "in the deepspeed config file or assign integer value to `AcceleratorState().deepspeed_plugin"
     ".deepspeed_config['train_micro_batch_size_per_gpu']`.\n", "deepspeed-prepare-no-dataloader"),
    # --- cuda-fork-after-init ------------------------------------------------------------
    # accelerate 1.x (launchers.py), the device type in the message
    (TRACE + "RuntimeError: An issue was found when launching the training: XPU has been "
     "initialized before the `notebook_launcher` could create a forked subprocess. This likely "
     "stems from an outside import causing issues once the `notebook_launcher()` is called.\n",
     "cuda-fork-after-init"),
    # torch 2.x (xpu/__init__.py)
    (TRACE + "RuntimeError: Cannot re-initialize XPU in forked subprocess. To use XPU with "
     "multiprocessing, you must use the 'spawn' start method\n", "cuda-fork-after-init"),
    # accelerate 0.12 .. 0.2x (launchers.py)
    (TRACE + "ValueError: To launch a multi-GPU training from your notebook, you need to avoid "
     "running any instruction using `torch.cuda` in any cell. Restart your notebook and make "
     "sure no cells use any CUDA function.\n", "cuda-fork-after-init"),
    # accelerate 0.27 .. 1.15 (launchers.py)
    (TRACE + "RuntimeError: Could not start distributed process. Libraries known to initialize "
     "device upon import have been imported already. Please keep these imports inside your "
     "training function to try and help with this:\n\t* `bitsandbytes`\n",
     "cuda-fork-after-init"),
    # --- evaluate-cache-collision: evaluate 0.4.0 .. 0.4.6 (module.py, its own typo) ------
    (TRACE + "ValueError: Error in _init_writer: another evalution module instance is already "
     "using the local cache file at /root/.cache/huggingface/metrics/accuracy/default/"
     "default_experiment-1-rdv.lock. Please specify an experiment_id (currently: "
     "default_experiment) to avoid collision between distributed evaluation module instances.\n",
     "evaluate-cache-collision"),
    # --- flash-attn-not-installed: transformers 5.x (flash_attn_3) -----------------------
    (TRACE + "ImportError: FlashAttention3 has been toggled on, but it cannot be used due to the "
     "following error: the package flash_attn_3 seems to be not installed.\n",
     "flash-attn-not-installed"),
    # --- grpo-generations-batch: trl 1.16 (grpo_config.py, rloo_config.py) ----------------
    (TRACE + "ValueError: generation_batch_size (12) must be divisible by num_generations (8).\n",
     "grpo-generations-batch"),
    (TRACE + "ValueError: The global eval batch size (3 * 2) must be divisible by the number of "
     "generations used for evaluation (4).\n", "grpo-generations-batch"),
    # --- local-rank-argument: transformers' HfArgumentParser under torch.distributed.launch
    (TRACE + "ValueError: Some specified arguments are not used by the HfArgumentParser: "
     "['--local-rank=0']\n", "local-rank-argument"),
    # --- model-type-unknown: transformers 4.21 .. 4.30 (configuration_auto.py) ------------
    ("Traceback (most recent call last):\n"
     "  File \"train.py\", line 12, in <module>\n"
     "    model = AutoModelForCausalLM.from_pretrained(\"mistralai/Mistral-7B-v0.1\")\n"
     "  File \"/opt/venv/lib/python3.10/site-packages/transformers/models/auto/"
     "configuration_auto.py\", line 957, in from_pretrained\n"
     "    config_class = CONFIG_MAPPING[config_dict[\"model_type\"]]\n"
     "  File \"/opt/venv/lib/python3.10/site-packages/transformers/models/auto/"
     "configuration_auto.py\", line 671, in __getitem__\n"
     "    raise KeyError(key)\n"
     "KeyError: 'mistral'\n", "model-type-unknown"),
    # --- quantization-gpu-too-old: transformers' FP8 quantizers, raised -------------------
    # transformers 4.43 .. (quantizers/quantizer_fbgemm_fp8.py validate_environment)
    (TRACE + "    model = AutoModelForCausalLM.from_pretrained(model_id, device_map='auto')\n"
     "ValueError: FP8 quantized models is only supported on GPUs with compute capability >= "
     "9.0 (e.g H100)\n", "quantization-gpu-too-old"),
    # transformers' finegrained_fp8 quantizer before it only warned and dequantized
    (TRACE + "    model = AutoModelForCausalLM.from_pretrained('deepseek-ai/DeepSeek-V3')\n"
     "ValueError: FP8 quantized models is only supported on GPUs with compute capability >= "
     "8.9 (e.g 4090/H100), actual = `8.0`\n", "quantization-gpu-too-old"),
    # transformers 4.5x at import (dependency_versions_check.py -> utils/versions.py)
    (raised("_compare_versions(op, got_ver, want_ver, requirement, pkg, hint)",
             "ImportError: huggingface-hub>=0.34.0,<1.0 is required for a normal functioning of "
             "this module, but found huggingface-hub==1.2.3.\nTry: `pip install transformers -U` "
             "or `pip install -e '.[dev]'` if you're working with git main"),
     "library-version-skew"),
    # transformers (models/auto/tokenization_auto.py): a remote-code tokenizer class
    (raised("tokenizer = AutoTokenizer.from_pretrained(model_dir)",
             "ValueError: Tokenizer class QWenTokenizer does not exist or is not currently "
             "imported."),
     "tokenizer-class-unknown"),
    # transformers 4.45 (models/auto/auto_factory.py): Qwen2-VL loaded as a causal LM
    (raised("ref_model = AutoModelForCausalLM.from_pretrained(model_id)",
             "ValueError: Unrecognized configuration class <class 'transformers.models.qwen2_vl."
             "configuration_qwen2_vl.Qwen2VLConfig'> for this kind of AutoModel: "
             "AutoModelForCausalLM.\nModel type should be one of BartConfig, BertConfig, ..."),
     "vision-model-loaded-as-causal-lm"),
    # transformers 4.4x (models/mistral/modeling_mistral.py _update_causal_mask)
    (raised("raise ValueError(",
             "ValueError: You are attempting to perform batched generation with "
             "padding_side='right' this may lead to unexpected behaviour for Flash Attention "
             "version of Mistral. Make sure to  call `tokenizer.padding_side  = 'left'` before "
             "tokenizing the input."),
     "flash-attn-right-padding-with-cache"),
    # transformers before 4.37 (models/auto/configuration_auto.py), an excerpt from the
    # mapping's own frame: a Qwen2 checkpoint
    ("  File \"/usr/local/lib/python3.10/dist-packages/transformers/models/auto/"
     "configuration_auto.py\", line 671, in __getitem__\n    raise KeyError(key)\n"
     "KeyError: 'qwen2'\n", "model-type-unknown"),
    # transformers 4.34 .. 4.36 modeling_utils.py _check_and_enable_flash_attn_2
    ("  File \"/venv/lib/python3.10/site-packages/transformers/modeling_utils.py\", line 1422, "
     "in _check_and_enable_flash_attn_2\n    raise ValueError(\nValueError: Flash Attention "
     "2.0 only supports torch.float16 and torch.bfloat16 dtypes. You passed torch.float32, "
     "this might lead to unexpected behaviour.\n", "flash-attn-dtype"),
    # transformers' Trainer log dict (trainer.py log): the loss turned NaN and stays there
    ("{'loss': 1.2345, 'grad_norm': 3.2, 'learning_rate': 2e-05, 'epoch': 0.05}\n"
     "{'loss': nan, 'grad_norm': nan, 'learning_rate': 2e-05, 'epoch': 0.1}\n"
     "{'loss': nan, 'grad_norm': nan, 'learning_rate': 2e-05, 'epoch': 0.15}\n"
     "{'train_runtime': 100.0, 'train_samples_per_second': 3.2, 'train_loss': nan, "
     "'epoch': 1.0}\n", "nan-loss"),
    # a bf16/fp16 overflow (LLaMA-Factory's FAQ, ChatGLM3 in fp16): the loss is 0.0 and every
    # gradient NaN
    ("{'loss': 1.2345, 'grad_norm': 3.2, 'learning_rate': 2e-05, 'epoch': 0.05}\n"
     "{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 0.00012142857142857143, 'epoch': 0.1}\n"
     "{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 0.00012142857142857143, 'epoch': 0.15}"
     "\n", "nan-loss"),
    # accelerate 0.2x utils/modeling.py set_module_tensor_to_device ("this look incorrect"):
    # a ZeRO-3 save's empty placeholder loaded by from_pretrained with device_map
    (raised("raise ValueError(",
             "ValueError: Trying to set a tensor of shape torch.Size([0]) in \"weight\" (which "
             "has shape torch.Size([64000, 7168])), this look incorrect."),
     "zero3-empty-params"),
    # the same function, loading into a model ZeRO-3 had already partitioned
    (raised("raise ValueError(",
             "ValueError: Trying to set a tensor of shape torch.Size([43176, 8192]) in \"weight\" "
             "(which has shape torch.Size([0])), this looks incorrect."),
     "zero3-empty-params"),
    # peft/tuners/lora/model.py _unload_and_optionally_merge on a GPTQ base (peft 0.5 .. 0.13)
    (raised("raise ValueError(\"Cannot merge LORA layers when the model is gptq quantized\")",
             "ValueError: Cannot merge LORA layers when the model is gptq quantized"),
     "peft-merge-quantized-base"),
    # LLaMA-Factory src/llamafactory/train/tuner.py export_model (0.8)
    (raised("raise ValueError(\"Cannot merge adapters to a quantized model.\")",
             "ValueError: Cannot merge adapters to a quantized model."),
     "peft-merge-quantized-base"),

    # --- diffusion training on the diffusers stack -----------------------------------------
    # diffusers 0.26 moved the UNet and transformer modules (models/unets, models/transformers)
    ("Traceback (most recent call last):\n  File \"nodes.py\", line 10, in <module>\n"
     "    from diffusers.models.dual_transformer_2d import DualTransformer2DModel\n"
     "ModuleNotFoundError: No module named 'diffusers.models.dual_transformer_2d'\n",
     "diffusers-module-moved"),
    ("Traceback (most recent call last):\n  File \"convert.py\", line 12, in <module>\n"
     "    UNet2DConditionOutput = diffusers.models.unet_2d_condition.UNet2DConditionOutput\n"
     "AttributeError: module 'diffusers.models' has no attribute 'unet_2d_condition'\n",
     "diffusers-module-moved"),
    # diffusers loaders/peft.py set_adapters without the PEFT backend
    (TRACE + "    pipe.set_adapters([\"style\"], adapter_weights=[0.8])\n"
     "ValueError: PEFT backend is required for `set_adapters()`.\n", "diffusers-peft-backend-missing"),
    # older diffusers loaders: the same check with its install hint
    (TRACE + "ValueError: PEFT backend is required for this method. Please install the latest "
     "version of PEFT `pip install -U peft`\n", "diffusers-peft-backend-missing"),
    # a repository's copy of the examples' check, as an assert (ImageDream)
    (TRACE + "AssertionError: xformers is not available. Make sure it is installed correctly\n",
     "xformers-not-importable"),
    # diffusers deprecate() on a variant fallback, raised inside diffusers' own dev build
    (TRACE + "ValueError: The deprecation tuple ('no variant default', '0.24.0', \"You are trying to "
     "load the model files of the `variant=fp16`, but no such modeling files are available.\") "
     "should be removed since diffusers' version 0.26.0.dev0 is >= 0.24.0\n",
     "diffusers-deprecation-deadline"),
]


HEALTHY = [
    # fp16 AMP: an overflowing step the GradScaler skips (grad_norm nan, the loss finite)
    "{'loss': 2.3114, 'grad_norm': nan, 'learning_rate': 2e-05, 'epoch': 0.01}\n"
    "{'loss': 2.2871, 'grad_norm': 1.93, 'learning_rate': 2e-05, 'epoch': 0.02}\n",
    # transformers 4.37 and later: the FlashAttention-2 dtype check is a warning
    "Flash Attention 2.0 only supports torch.float16 and torch.bfloat16 dtypes, but the "
    "current dype in Qwen3ForCausalLM is torch.float32. You should run training or inference "
    "using Automatic Mixed-Precision via the `with torch.autocast(device_type='torch_device'):"
    "` decorator, or load the model with the `torch_dtype` argument.\n"
    "{'loss': 1.2, 'epoch': 0.5}\n",
    "requirement vllm>=0.4.3,<=0.7.3 satisfied: found vllm==0.7.3\n",
    # the same since pydantic 2.1: a warning, and the program goes on
    "/venv/lib/python3.11/site-packages/pydantic/_internal/_fields.py:151: UserWarning: Field "
    "\"model_name\" has conflict with protected namespace \"model_\".\n",
    # transformers' finegrained_fp8 quantizer today: a warning, and the model loads in bf16
    "FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g "
    "4090/H100), actual = `8.0`. We will default to dequantizing the model to bf16. Feel free "
    "to use a different quantization method like bitsandbytes or torchao\n"
    "Loading checkpoint shards: 100%|##########| 4/4 [00:09<00:00,  2.30s/it]\n",
    # the retry that worked (a warning, and the run goes on)
    "Rate limit info: 4999/5000 requests remaining in current 300s window\n"
    "{'loss': 1.93, 'learning_rate': 2e-05, 'epoch': 0.1}\n",
    # a gated model the job is allowed to read
    "Loading gated model meta-llama/Llama-3.1-8B with the token of this account\n"
    "{'loss': 1.71, 'epoch': 0.2}\n",
    # offline mode on purpose, everything cached
    "HF_HUB_OFFLINE=1: reading meta-llama/Llama-3.1-8B from the local cache\n"
    "{'loss': 1.62, 'epoch': 0.3}\n",
    # a KeyError from the same file without the CONFIG_MAPPING frame is not a model type
    "Parsed config keys: model_type, hidden_size, vocab_size\n{'loss': 1.50, 'epoch': 0.4}\n",
    # notebook_launcher's normal start
    "Launching training on 4 GPUs.\n{'loss': 1.40, 'epoch': 0.5}\n",
    # GRPO's settings echoed
    "generation_batch_size: 16, num_generations: 8\n{'loss': 0.02, 'epoch': 0.6}\n",
]
