"""The training loops' own checks on a distributed run (accelerate 1.15, Lightning 2.6,
transformers 5.24), each raised from the frame named beside it, diagnosed as its rule; and
the warnings with the same words or near them that must stay quiet."""

from __future__ import annotations

from wordings import TRACE

WORDINGS = [
    # lightning/fabric/plugins/environments/torchelastic.py:90  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/fabric/plugins/environments/torchelastic.py\", "
     "line 90, in validate_settings\n    raise ValueError(\nValueError: You set "
     "`devices=1` and `num_nodes=1` in Lightning, but the product (1 * 1) does not match "
     "the world size (4).\n",
     "lightning-torchrun-world-size"),
    # accelerate/commands/launch.py:1259  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/commands/launch.py\", "
     "line 1259, in _validate_launch_command\n    raise ValueError(\nValueError: Less "
     "than two GPU ids were configured and tried to run on multiple GPUs. Please ensure "
     "at least two are specified for `--gpu_ids`, or use `--gpu_ids='all'`.\n",
     "accelerate-launch-config-invalid"),
    # accelerate/utils/dataclasses.py:1410  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/utils/dataclasses.py\", "
     "line 1410, in deepspeed_config_process\n    raise ValueError(\nValueError: Please "
     "correct the following DeepSpeed config values that mismatch kwargs  values:\n",
     "ds-hf-config-mismatch"),
    # accelerate/accelerator.py:1885  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/accelerator.py\", "
     "line 1885, in prepare_model\n    raise ValueError(\nValueError: Your model contains "
     "`DTensor` parameters, which is incompatible with DDP. Maybe you loaded your model "
     "with `device_map='auto'`? Specify `device_map='cuda'` or 'xpu' or 'cpu' instead.\n",
     "device-map-with-ddp"),
    # lightning/fabric/plugins/io/torch_io.py:89  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/fabric/plugins/io/torch_io.py\", "
     "line 89, in load_checkpoint\n    raise FileNotFoundError(f\"Checkpoint file not "
     "found: {path}\")\nFileNotFoundError: Checkpoint file not found: "
     "/scratch/bob/ckpts/last.ckpt\n",
     "trainer-checkpoint-not-found"),
    # accelerate/accelerator.py:3829  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/accelerator.py\", "
     "line 3829, in load_state\n    raise ValueError(f\"Tried to find {input_dir} but "
     "folder does not exist\")\nValueError: Tried to find /scratch/alice/run3/step_2000 "
     "but folder does not exist\n",
     "trainer-checkpoint-not-found"),
    # lightning/pytorch/strategies/fsdp.py:375  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/strategies/fsdp.py\", "
     "line 375, in setup_optimizers\n    raise ValueError(\nValueError: The optimizer "
     "does not seem to reference any FSDP parameters. HINT: Make sure to create the "
     "optimizer after setting up the model by referencing "
     "`self.trainer.model.parameters()` in the `configure_optimizers()` hook.\n",
     "fsdp-optimizer-before-wrap"),
    # accelerate/accelerator.py:4086  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/accelerator.py\", "
     "line 4086, in get_state_dict\n    raise ValueError(\nValueError: Cannot get 16bit "
     "model weights because `stage3_gather_16bit_weights_on_model_save` in DeepSpeed "
     "config is False. To save the model weights in 16bit, set "
     "`stage3_gather_16bit_weights_on_model_save` to True in DeepSpeed config file or set "
     "`zero3_save_16bit_model` to True when using `accelerate config`. To save the full "
     "checkpoint, run `model.save_checkpoint(save_dir)` and use `zero_to_fp32.py` to "
     "recover weights.\n",
     "zero3-16bit-save-disabled"),
    # transformers/trainer.py:718  (transformers 5.24.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/transformers/trainer.py\", "
     "line 718, in _validate_args\n    raise RuntimeError(\nRuntimeError: Passing "
     "`optimizers` is not allowed if PyTorch FSDP is enabled. You should subclass "
     "`Trainer` and override the `create_optimizer_and_scheduler` method.\n",
     "fsdp-optimizer-before-wrap"),
    # lightning/pytorch/utilities/data.py:317  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/utilities/data.py\", "
     "line 317, in _dataloader_init_kwargs_resolve_sampler\n    raise TypeError(\n"
     "TypeError:  Lightning can't inject a (distributed) sampler into your batch sampler, "
     "because it doesn't subclass PyTorch's `BatchSampler`. To mitigate this, either "
     "follow the API of `BatchSampler` or set `Trainer(use_distributed_sampler=False)`. "
     "If you choose the latter, you will be responsible for handling the distributed "
     "sampling within your batch sampler.\n",
     "lightning-loader-reinstantiation"),
    # lightning/pytorch/strategies/launchers/subprocess_script.py:155  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/strategies/launchers/subprocess_script.py\", "
     "line 155, in _check_can_spawn_children\n    raise RuntimeError(\nRuntimeError: "
     "Lightning attempted to launch new distributed processes with `local_rank > 0`. This "
     "should not happen. Possible reasons: 1) LOCAL_RANK environment variable was "
     "incorrectly modified by the user, 2) "
     "`ClusterEnvironment.creates_processes_externally` incorrectly implemented.\n",
     "lightning-foreign-launcher"),
    # lightning/pytorch/trainer/connectors/checkpoint_connector.py:375  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/trainer/connectors/checkpoint_connector.py\", "
     "line 375, in restore_optimizers_and_schedulers\n    raise KeyError(\nKeyError: "
     "'Trying to restore optimizer state but checkpoint contains only the model. This is "
     "probably due to `ModelCheckpoint.save_weights_only` being set to `True`.'\n",
     "lightning-weights-only-resume"),
    # lightning/pytorch/trainer/connectors/checkpoint_connector.py:362  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/trainer/connectors/checkpoint_connector.py\", "
     "line 362, in restore_loops\n    raise MisconfigurationException(\n"
     "lightning.fabric.utilities.exceptions.MisconfigurationException: You restored a "
     "checkpoint with current_epoch=20, but you have set Trainer(max_epochs=10).\n",
     "lightning-resume-past-max-epochs"),
    # transformers/trainer.py:729  (transformers 5.24.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/transformers/trainer.py\", "
     "line 729, in _validate_args\n    raise ValueError(\nValueError: The train_dataset "
     "does not implement __len__, so the number of training steps cannot be inferred; "
     "max_steps has to be specified. The total number of steps must be known in advance "
     "to bound the training loop and to configure the learning rate scheduler.\n",
     "trainer-iterable-needs-max-steps"),
    # accelerate/data_loader.py:844  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/data_loader.py\", "
     "line 844, in _fetch_batches\n    raise RuntimeError(\nRuntimeError: You can't use "
     "batches of different size with `dispatch_batches=True` or when using an "
     "`IterableDataset`.either pass `dispatch_batches=False` and have each process fetch "
     "its own batch  or pass `split_batches=True`. By doing so, the main process will "
     "fetch a full batch and slice it into `num_processes` batches for each process.\n",
     "accelerate-dispatch-uneven-batches"),
    # accelerate/utils/dataclasses.py:1862 -> accelerate/utils/environment.py:71  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/utils/environment.py\", "
     "line 71, in str_to_bool\n    raise ValueError(f\"invalid truth value {value}\")\n"
     "ValueError: invalid truth value full_shard\n",
     "fsdp2-reshard-strategy-name"),
    # transformers/trainer.py:3648  (transformers 5.24.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/transformers/trainer.py\", "
     "line 3648, in _load_from_checkpoint\n    raise ValueError(f\"Checkpoint found at "
     "{resume_from_checkpoint} is only supported when using PyTorch FSDP\")\nValueError: "
     "Checkpoint found at /scratch/carol/out/llama-sft/checkpoint-1500 is only supported "
     "when using PyTorch FSDP\n",
     "trainer-fsdp-checkpoint-without-fsdp"),
    # lightning/pytorch/utilities/data.py:113  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/utilities/data.py\", "
     "line 113, in has_len_all_ranks\n    raise RuntimeError(\nRuntimeError: `DataLoader` "
     "within local rank has zero length. Please make sure that it returns at least 1 "
     "batch.\n",
     "rank-dataloader-empty"),
    # lightning/fabric/utilities/distributed.py:319  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/fabric/utilities/distributed.py\", "
     "line 319, in __init__\n    raise TypeError(\nTypeError: You seem to have configured "
     "a sampler in your DataLoader which does not provide `__len__` method. The sampler "
     "was about to be replaced by `DistributedSamplerWrapper` since "
     "`use_distributed_sampler` is True and you are using distributed training. Either "
     "provide `__len__` method in your sampler, remove it from DataLoader or set "
     "`use_distributed_sampler=False` if you want to handle distributed sampling "
     "yourself.\n",
     "lightning-loader-reinstantiation"),
    # lightning/pytorch/utilities/data.py:209  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/utilities/data.py\", "
     "line 209, in _get_dataloader_init_args_and_kwargs\n    raise "
     "MisconfigurationException(\n"
     "lightning.fabric.utilities.exceptions.MisconfigurationException: Trying to inject "
     "custom `Sampler` into the `BucketDataLoader` instance. This would fail as some of "
     "the `__init__` arguments are not available as instance attributes. The missing "
     "attributes are ['bucket_size']. If you instantiate your `BucketDataLoader` inside a "
     "`*_dataloader` hook of your module, we will do this for you. Otherwise, define "
     "`self.bucket_size` inside your `__init__`.\n",
     "lightning-loader-reinstantiation"),
    # lightning/fabric/strategies/deepspeed.py:881  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/fabric/strategies/deepspeed.py\", "
     "line 881, in _validate_device_index_selection\n    raise RuntimeError(\n"
     "RuntimeError: The selected device indices [2, 3] don't match the local rank values "
     "of processes. If you need to select GPUs at a specific index, set the "
     "`CUDA_VISIBLE_DEVICES` environment variable instead. For example: "
     "`CUDA_VISIBLE_DEVICES=2,3`.\n",
     "deepspeed-device-indices"),
    # transformers/trainer.py:1216  (transformers 5.24.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/transformers/trainer.py\", "
     "line 1216, in _remove_unused_columns\n    raise ValueError(\nValueError: No columns "
     "in the dataset match the model's forward method signature: (input_ids, "
     "attention_mask, labels, label, label_ids). The following columns have been ignored: "
     "[text]. Please check the dataset and model. You may need to set "
     "`remove_unused_columns=False` in `TrainingArguments`.\n",
     "trainer-no-model-columns"),
    # transformers/trainer.py:2200  (transformers 5.24.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/transformers/trainer.py\", "
     "line 2200, in compute_loss\n    raise ValueError(\nValueError: The model did not "
     "return a loss from the inputs, only the following keys: logits,past_key_values. For "
     "reference, the inputs it received are input_ids,attention_mask.\n",
     "trainer-model-no-loss"),
    # lightning/pytorch/callbacks/model_checkpoint.py:587  (lightning 2.6.6)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/lightning/pytorch/callbacks/model_checkpoint.py\", "
     "line 587, in _save_topk_checkpoint\n    raise MisconfigurationException(m)\n"
     "lightning.fabric.utilities.exceptions.MisconfigurationException: "
     "`ModelCheckpoint(monitor='val_loss')` could not find the monitored key in the "
     "returned metrics: ['train_loss', 'epoch', 'step']. HINT: Did you call "
     "`log('val_loss', value)` in the `LightningModule`?\n",
     "lightning-monitor-key-missing"),
    # accelerate/accelerator.py:1518  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/accelerator.py\", "
     "line 1518, in prepare\n    raise ValueError(\nValueError: When using FSDP2, a model "
     "and optimizer must be passed together to `Accelerator.prepare()` as the optimizer "
     "needs to have its parameters modified after the model is converted.\n",
     "fsdp2-prepare-model-and-optimizer"),
    # accelerate/accelerator.py:1756  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/accelerator.py\", "
     "line 1756, in _prepare_fsdp2\n    raise ValueError(\nValueError: FSDP2 mapping "
     "failed (missing: ['lm_head.weight']). This is likely due to tied embeddings (config "
     "has tie_word_embeddings=True but checkpoint has separate weights).\n",
     "fsdp2-tied-embeddings"),
    # accelerate/utils/dataclasses.py:1439  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/utils/dataclasses.py\", "
     "line 1439, in set_mixed_precision\n    raise ValueError(\nValueError: "
     "`--mixed_precision` arg cannot be set to `bf16` when `fp16` is set in the DeepSpeed "
     "config file.\n",
     "accelerate-deepspeed-config-conflict"),
    # accelerate/utils/dataclasses.py:1368  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/utils/dataclasses.py\", "
     "line 1368, in fill_match\n    raise ValueError(\nValueError: `optimizer.params.lr` "
     "not found in kwargs. Please specify `optimizer.params.lr` without `auto` (set to "
     "correct value) in the DeepSpeed config file or pass it in kwargs.\n",
     "deepspeed-auto-unfilled"),
    # transformers/training_args.py:1682  (transformers 5.24.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/transformers/training_args.py\", "
     "line 1682, in __post_init__\n    raise ValueError(\"--tf32 requires Ampere or a "
     "newer GPU arch, cuda>=11 and torch>=1.7\")\nValueError: --tf32 requires Ampere or a "
     "newer GPU arch, cuda>=11 and torch>=1.7\n",
     "tf32-unsupported"),
    # accelerate/accelerator.py:3685  (accelerate 1.15.0)
    (TRACE + "  File "
     "\"/venv/lib/python3.11/site-packages/accelerate/accelerator.py\", "
     "line 3685, in _inner\n    raise ValueError(\nValueError: Checkpoint directory "
     "/scratch/alice/run3/checkpoints/checkpoint_0 (0) already exists. Please manually "
     "override `self.save_iteration` with what iteration to start with.\n",
     "accelerate-save-iteration-reset"),
]

HEALTHY = [
    # Lightning's torchelastic environment on a run that matches
    "GPU available: True (cuda), used: True\n",
    # transformers: the Trainer's note, and device_map='auto' under torchrun (a log line)
    "INFO: You've set device_map=`auto` while triggering a distributed run with torchrun. This "
    "might lead to unexpected behavior.\n",
    # Lightning: resume asked for "last" with none there: a warning, the run starts afresh
    ".fit(ckpt_path=\"last\") is set, but there is no last checkpoint available. No checkpoint "
    "will be loaded.\n",
    "INFO accelerate.accelerator: Loading states from /scratch/alice/run3/step_2000\n",
    # Lightning 2.6 model_checkpoint.py:588 and early_stopping.py: the same words as a warning
    # before validation has run, and with strict=False
    "/opt/conda/lib/python3.11/site-packages/lightning/pytorch/callbacks/model_checkpoint.py:588: "
    "`ModelCheckpoint(monitor='val_loss')` could not find the monitored key in the returned "
    "metrics: ['train_loss', 'epoch', 'step']. HINT: Did you call `log('val_loss', value)` in "
    "the `LightningModule`?\n",
    "RuntimeWarning: Early stopping conditioned on metric `val_acc` which is not available. "
    "Pass in or modify your `EarlyStopping` callback to use any of the following: `train_loss`\n",
    "UserWarning: Total length of `DataLoader` across ranks is zero. Please make sure this was "
    "your intention.\n",
    "[INFO|trainer.py:1208] 2025-01-09 >> The following columns in the Training set don't have "
    "a corresponding argument in `LlamaForCausalLM.forward` and have been ignored: text.\n",
    "UserWarning: sharding_strategy is deprecated in favor of reshard_after_forward.\n",
    "`Trainer.fit` stopped: `max_epochs=10` reached.\n",
    "WARNING: Deleting 1 checkpoints to make room for new checkpoint.\n",
]
