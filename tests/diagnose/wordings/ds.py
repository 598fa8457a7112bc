"""The wordings DeepSpeed (0.8 to 0.17) and PyTorch Lightning / Lightning Fabric (1.9 to
2.6) really print, diagnosed as their rules, and the healthy lines next to them that must
not be.  Each text is copied from the library's source at the release named beside it."""

from __future__ import annotations

from wordings import TRACE, raised

WORDINGS = [
    # DeepSpeed launcher/runner.py, 0.8.3 to 0.17.6: no GPU counted on this machine
    (raised("raise RuntimeError(\"Unable to proceed, no GPU resources available\")",
             "RuntimeError: Unable to proceed, no GPU resources available"),
     "torch-without-cuda"),
    # Lightning Fabric accelerators/cuda.py find_usable_cuda_devices, 1.9.5 to 2.6.0
    (raised("devices = find_usable_cuda_devices(2)",
             "ValueError: You requested to find 2 devices but there are no visible CUDA "
             "devices on this machine."),
     "torch-without-cuda"),
    # pytorch_lightning 1.9.5 tuner/auto_gpu_select.py (auto_select_gpus=True), no GPU
    (raised("trainer = pl.Trainer(gpus=2, auto_select_gpus=True)",
             "lightning_fabric.utilities.exceptions.MisconfigurationException: You requested 2 "
             "GPUs but your machine only has 0 GPUs."),
     "torch-without-cuda"),
    # pytorch_lightning 1.9.5 tuner/auto_gpu_select.py, fewer GPUs than asked
    (raised("trainer = pl.Trainer(gpus=8, auto_select_gpus=True)",
             "lightning_fabric.utilities.exceptions.MisconfigurationException: You requested 8 "
             "GPUs but your machine only has 4 GPUs."),
     "no-cuda-device"),
    # Lightning Fabric find_usable_cuda_devices, 1.9.5 to 2.6.0, fewer GPUs than asked
    (raised("devices = find_usable_cuda_devices(8)",
             "ValueError: You requested to find 8 devices but this machine only has 2 GPUs."),
     "no-cuda-device"),
    # Lightning Fabric find_usable_cuda_devices, 1.9.5 to 2.6.0: a GPU refused a tensor
    (raised("trainer = L.Trainer(devices=find_usable_cuda_devices(4))",
             "RuntimeError: You requested to find 4 devices but only 2 are currently "
             "available. The devices [2, 3] are occupied by other processes and can't be used "
             "at the moment."),
     "gpu-busy"),
    # DeepSpeed runtime/engine.py _do_sanity_check, 0.16.9 and 0.17.6 (absent in 0.15.4)
    (raised("raise ValueError(\"Type bf16 is not supported on your device.\")",
             "ValueError: Type bf16 is not supported on your device."),
     "bf16-unsupported"),
    # Lightning strategies/deepspeed.py (Trainer and Fabric), 1.9.5 to 2.6.0
    (raised("trainer = L.Trainer(strategy=DeepSpeedStrategy(config=\"ds_config.json\"))",
             "lightning.fabric.utilities.exceptions.MisconfigurationException: You passed in a "
             "path to a DeepSpeed config but the path does not exist: ds_config.json"),
     "deepspeed-config-not-found"),
    # DeepSpeed runtime/config.py _do_sanity_check, 0.8.3 to 0.17.6 (unchanged)
    (raised("model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model)",
             "ValueError: Expected a string path to an existing deepspeed config, or a "
             "dictionary or a valid base64. Received: configs/ds_zero2.json"),
     "deepspeed-config-not-found"),
    # Lightning 2.0 to 2.6 (Python 3.10+ names the class): 1.x arguments 2.0 removed
    (raised("trainer = pl.Trainer(accelerator=\"gpu\", devices=4, amp_backend=\"apex\")",
             "TypeError: Trainer.__init__() got an unexpected keyword argument 'amp_backend'"),
     "lightning-2-removed-arguments"),
    (raised("trainer = pl.Trainer(devices=4, replace_sampler_ddp=False)",
             "TypeError: Trainer.__init__() got an unexpected keyword argument "
             "'replace_sampler_ddp'"),
     "lightning-2-removed-arguments"),
    # ... and Python 3.8/3.9, which print __init__() alone
    (raised("trainer = pl.Trainer(auto_lr_find=True)",
             "TypeError: __init__() got an unexpected keyword argument 'auto_lr_find'"),
     "lightning-2-removed-arguments"),
    # Lightning 2.x trainer/connectors/accelerator_connector.py: 1.9 strategies 2.0 dropped
    (raised("trainer = pl.Trainer(strategy=\"ddp_sharded_spawn\", devices=2)",
             "ValueError: You selected an invalid strategy name: `strategy='ddp_sharded_spawn'`. "
             "It must be either a string or an instance of `lightning.pytorch.strategies.Strategy`."
             " Example choices: auto, ddp, ddp_spawn, deepspeed, ... Find a complete list of "
             "options in our documentation at https://lightning.ai"),
     "lightning-2-removed-arguments"),
    (raised("trainer = pl.Trainer(strategy=\"fsdp_native\", devices=8)",
             "ValueError: You selected an invalid strategy name: `strategy='fsdp_native'`. It "
             "must be either a string or an instance of `pytorch_lightning.strategies.Strategy`."
             " Example choices: ddp, ddp_spawn, deepspeed, dp, ..."),
     "lightning-2-removed-arguments"),
    (raised("trainer = pl.Trainer(accelerator=\"tpu\", strategy=\"tpu_spawn\")",
             "ValueError: You selected an invalid strategy name: `strategy='tpu_spawn'`. It "
             "must be either a string or an instance of `lightning.pytorch.strategies.Strategy`."),
     "lightning-2-removed-arguments"),
    # DeepSpeed runtime/config.py _batch_assertion, 0.8.3 to 0.17.6: gas = 0 on this world
    (raised("assert (grad_acc > 0), f\"Gradient accumulation steps: {grad_acc} has to be "
             "greater than 0\"",
             "AssertionError: Gradient accumulation steps: 0 has to be greater than 0"),
     "batch-size-mismatch"),
    # DeepSpeed runtime/engine.py set_train_batch_size, 0.8.3 to 0.17.6
    (raised("engine.set_train_batch_size(new_batch_size)",
             "ValueError: Train batch size must be divisible by micro-batch data parallelism"),
     "batch-size-mismatch"),
    # DeepSpeed op_builder/builder.py assert_no_cuda_mismatch, 0.8.3 to 0.17.6 (the refusal)
    (raised("self.ds_opt_adam = CPUAdamBuilder().load()",
             "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: "
             "Installed CUDA version 12.4 does not match the version torch was compiled with "
             "11.8, unable to compile cuda/cpp extensions without a matching cuda version."),
     "cuda-toolkit-mismatch"),
    # DeepSpeed op_builder/builder.py load(), 0.8.3 to 0.17.6
    (raised("self.ds_opt_adam = CPUAdamBuilder().load()",
             "RuntimeError: Unable to JIT load the cpu_adam op due to ninja not being "
             "installed."),
     "ninja-missing"),
    # DeepSpeed op_builder/builder.py load(), 0.8.3 to 0.17.6: prebuilt ops, another torch
    (raised("fused_adam = FusedAdamBuilder().load()",
             "RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed "
             "with a different version than what is being used at runtime. Please re-install "
             "DeepSpeed or switch torch versions. Install torch version=2.1, Runtime torch "
             "version=2.4"),
     "extension-abi-mismatch"),
    (raised("fused_adam = FusedAdamBuilder().load()",
             "RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed "
             "with a different version than what is being used at runtime. Please re-install "
             "DeepSpeed or switch torch versions. Install CUDA version=11.8, Runtime CUDA "
             "version=12.1"),
     "extension-abi-mismatch"),
    # DeepSpeed ops/adagrad/cpu_adagrad.py (0.8.3 to 0.17.6) and ops/lion/cpu_lion.py
    # (0.12.6 to 0.17.6) __del__ after the op failed to build
    ("Exception ignored in: <function DeepSpeedCPUAdagrad.__del__ at 0x7f1c2a3b4d30>\n"
     + TRACE + "    self.ds_opt_adagrad.destroy_adagrad(self.opt_id)\nAttributeError: "
     "'DeepSpeedCPUAdagrad' object has no attribute 'ds_opt_adagrad'\n",
     "extension-build-failed"),
    ("Exception ignored in: <function DeepSpeedCPULion.__del__ at 0x7f1c2a3b4d30>\n"
     + TRACE + "    self.ds_opt_lion.destroy_lion(self.opt_id)\nAttributeError: "
     "'DeepSpeedCPULion' object has no attribute 'ds_opt_lion'\n",
     "extension-build-failed"),
    # DeepSpeed launcher/runner.py, 0.8.3 to 0.17.6
    ("[2024-05-02 10:11:12,345] [WARNING] [runner.py:202:fetch_hostfile] Unable to find "
     "hostfile, will proceed with training with local resources only.\n"
     + raised("raise ValueError(\"Num nodes is >1 but no extra nodes available via hostfile\")",
               "ValueError: Num nodes is >1 but no extra nodes available via hostfile"),
     "deepspeed-no-hostfile"),
    # DeepSpeed utils/groups.py _create_expert_and_data_parallel, 0.5 to 0.17 (MoE ep_size)
    (TRACE + "    model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model)\n"
     "  File \"/opt/venv/lib/python3.10/site-packages/deepspeed/moe/layer.py\", line 99, in "
     "_create_process_groups\n    groups._create_expert_and_data_parallel(self.ep_size)\n"
     "  File \"/opt/venv/lib/python3.10/site-packages/deepspeed/utils/groups.py\", line 130, in "
     "_create_expert_and_data_parallel\n    _ensure_divisibility(world_size, "
     "expert_parallel_size_)\n  File \"/opt/venv/lib/python3.10/site-packages/deepspeed/utils/"
     "groups.py\", line 54, in _ensure_divisibility\n    assert numerator % denominator == 0, "
     "'{} is not divisible by {}'.format(\nAssertionError: 6 is not divisible by 4\n",
     "expert-parallel-size-indivisible"),
    # ... and with a Megatron mpu: the data-parallel size over ep_size (_get_expert_parallel_ranks)
    (TRACE + "  File \"/opt/venv/lib/python3.10/site-packages/deepspeed/utils/groups.py\", line "
     "213, in _get_expert_parallel_ranks\n    _ensure_divisibility(dp_world_size, "
     "expert_parallel_size_)\n  File \"/opt/venv/lib/python3.10/site-packages/deepspeed/utils/"
     "groups.py\", line 54, in _ensure_divisibility\n    assert numerator % denominator == 0, "
     "'{} is not divisible by {}'.format(\nAssertionError: 2 is not divisible by 8\n",
     "expert-parallel-size-indivisible"),
    # DeepSpeed utils/zero_to_fp32.py parse_optim_states, 0.10 to 0.17: shards of two saves
    (raised("zero_stage, world_size, fp32_flat_groups = parse_optim_states(optim_files, "
            "ds_checkpoint_dir)",
            "ValueError: Expected 2 of '*_optim_states.pt' under '/ckpt/global_step600' but "
            "found 8 files. Possibly due to an overwrite of an old checkpoint, or a checkpoint "
            "didn't get saved by one or more processes."),
     "zero-checkpoint-shards-missing"),
]


HEALTHY = [
    # DeepSpeed op_builder/builder.py, 0.8.3 to 0.17.6: a minor CUDA mismatch it accepts
    "Installed CUDA version 12.4 does not match the version torch was compiled with 12.1 but "
    "since the APIs are compatible, accepting this combination\nstep 100: loss 2.31\n",
    # ... and 0.16.9 / 0.17.6 with DS_SKIP_CUDA_CHECK=1 (a warning; the build goes on)
    "[WARNING]  DeepSpeed Op Builder: Installed CUDA version 12.6 does not match the version "
    "torch was compiled with 11.8.Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination "
    "of CUDA, but it may result in unexpected behavior.\nstep 100: loss 2.31\n",
    # DeepSpeed launcher/runner.py: a single-node run without a hostfile is fine
    "[2024-05-02 10:11:12,345] [WARNING] [runner.py:202:fetch_hostfile] Unable to find "
    "hostfile, will proceed with training with local resources only.\n[2024-05-02 "
    "10:11:12,346] [INFO] [runner.py:568:main] cmd = /usr/bin/python -u -m "
    "deepspeed.launcher.launch --master_addr=127.0.0.1 train.py\n",
    # Lightning's start-up lines
    "GPU available: True (cuda), used: True\nTPU available: False, using: 0 TPU cores\n"
    "You requested to find 4 devices and found 4: [0, 1, 2, 3]\n",
    "Using DeepSpeed config from ds_config.json; the path exists\n",
    "Trainer(strategy='ddp_find_unused_parameters_true') selected, 8 processes\n",
    "train_batch_size 64 = micro_batch_per_gpu 4 * gradient_acc_step 2 * world_size 8\n",
    "bf16 is supported on your device: using torch.bfloat16\n",
    "DeepSpeedCPUAdam created with ds_opt_adam op 0\n",
    "Loading extension module cpu_adam... ninja found, JIT load of cpu_adam op done\n",
]
