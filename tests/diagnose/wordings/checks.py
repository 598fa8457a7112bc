"""The argument and configuration checks of DeepSpeed, accelerate, Lightning and transformers
(their sources' wordings) for failures an existing rule names; and healthy lines that look
like them, which must not be."""

from __future__ import annotations

TRACE = ("Traceback (most recent call last):\n"
         "  File \"/workspace/train.py\", line 88, in <module>\n"
         "    main()\n")

WORDINGS = [
    # DeepSpeed runtime/engine.py _do_args_sanity_check: started with plain python
    (TRACE + "AssertionError: DeepSpeed requires the LOCAL_RANK environment variable, it is set "
     "by the deepspeed launcher, deepspeed.init_distributed, or the torch.distributed "
     "launcher. If using a different launcher please ensure LOCAL_RANK is set prior to "
     "initializing deepspeed.\n", "not-launched"),
    # AllenNLP allennlp/common/checks.py check_for_gpu: no GPU visible, or an index past them
    (TRACE + "allennlp.common.checks.ConfigurationError: \"Experiment specified a GPU but none "
     "is available; if you want to run on CPU use the override 'trainer.cuda_device=-1' in "
     "the json config file.\"\n", "no-cuda-device"),
    (TRACE + "allennlp.common.checks.ConfigurationError: 'Experiment specified GPU device 2 but "
     "there are only 1 devices  available.'\n", "no-cuda-device"),
    # transformers training_args.py: --fsdp under plain python
    (TRACE + "ValueError: Using fsdp only works in distributed training.\n", "not-launched"),
    # accelerate state.py PartialState on several CPU nodes
    (TRACE + "ValueError: Tried to launch on distributed with multinode, but `MASTER_ADDR` env "
     "was not set, please try exporting rank 0's hostname as `MASTER_ADDR`\n", "not-launched"),
    # DeepSpeed comm/comm.py: zero.Init before init_distributed
    (TRACE + "AssertionError: DeepSpeed backend not set, please initialize it using "
     "init_process_group()\n", "process-group-not-initialized"),
    # DeepSpeed runtime/engine.py: --deepspeed_config to a missing path
    (TRACE + "AssertionError: DeepSpeed configuration file: configs/ds_zero2.json is not an "
     "existing file\n", "deepspeed-config-not-found"),
    # transformers integrations/deepspeed.py (a multimodal model's config)
    (TRACE + "ValueError: The model's config file has neither `hidden_size` nor `hidden_sizes` "
     "entry, therefore it's not possible to automatically fill out the following `auto` "
     "entries in the DeepSpeed config file: ['zero_optimization.reduce_bucket_size']. You can "
     "fix that by replacing `auto` values for these keys with an integer value of your "
     "choice.\n", "deepspeed-auto-unfilled"),
    # accelerate _prepare_deepspeed with a batch sampler
    (TRACE + "ValueError: At least one of the dataloaders passed to `accelerate.prepare()` has "
     "`None` as batch size. Please set an integer value in `train_micro_batch_size_per_gpu` in "
     "the deepspeed config file\n", "deepspeed-prepare-no-dataloader"),
    # DeepSpeed launcher/runner.py parse_resource_filter
    ("ValueError: Hostname 'localhost' not found in hostfile\n", "deepspeed-launcher-no-slot"),
    # accelerate utils/launch.py
    ("ConnectionError: Tried to launch distributed communication on port `29500`, but another "
     "process is utilizing it. Please specify a different port (such as using the "
     "`--main_process_port` flag or specifying a different `main_process_port` in your config "
     "file) and rerun your script.\n", "address-in-use"),
    # accelerate _prepare_ipex
    (TRACE + "ImportError: IPEX is not installed or IPEX's version does not match current "
     "PyTorch version. Please refer to https://github.com/intel/intel-extension-for-pytorch.\n",
     "ipex-torch-mismatch"),
    # Lightning accelerator connector and DeepSpeed strategy without a GPU
    (TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: The strategy "
     "`fsdp` requires a GPU accelerator, but got: cpu\n", "torch-without-cuda"),
    (TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: DeepSpeed "
     "strategy is only supported on GPU but `CPUAccelerator` is used.\n", "torch-without-cuda"),
    # a script that reads srun's or mpirun's variables, started by neither (Lightning's ddp2)
    ("  File \"trainer.py\", line 335, in fit\n    task = int(os.environ['SLURM_LOCALID'])\n"
     "KeyError: 'SLURM_LOCALID'\n", "not-launched"),
    ("KeyError: 'OMPI_COMM_WORLD_LOCAL_RANK'\n", "not-launched"),
    # DeepSpeed's __check_params prints the config's dtype as torch names it
    ("ValueError: torch.float16 is enabled but the following parameters have dtype that is not "
     "torch.float16: [('model.embed_tokens.weight', torch.bfloat16)]\n",
     "deepspeed-dtype-config-mismatch"),
    # a config path with a space in it
    (TRACE + "AssertionError: DeepSpeed configuration file: /home/user/My Project/ds.json is "
     "not an existing file\n", "deepspeed-config-not-found"),
    # zsh's own wording of a broken line continuation
    ("starting torchrun\ntrain.sh:14: command not found: --nproc_per_node=8\n",
     "launch-script-line-continuation"),
    # Lightning checkpoint connector (ckpt_path that does not exist)
    (TRACE + "FileNotFoundError: Checkpoint at /runs/exp3/last.ckpt not found. Aborting "
     "training.\n", "trainer-checkpoint-not-found"),
]

HEALTHY = [
    # a job script's tool after the run ended; a copy of the HF check that warns and goes on
    "[rank0]: step 1000 loss 0.50\n[rank0]: saved checkpoint to /ckpt/step1000\ntrain.sh: line "
    "42: deactivate: command not found\n",
    "[2025-01-01 10:00:00,000][treetune][WARNING] The model's config file has neither "
    "`hidden_size` nor `hidden_sizes` entry, therefore it's not possible to automatically fill "
    "out the following `auto` entries in the DeepSpeed config file: ['zero_optimization."
    "reduce_bucket_size']. We will set them to default values.\n[rank0]: step 10 loss 2.0\n",
    "[INFO] [engine.py:300:__init__] LOCAL_RANK=3 read from the environment (DeepSpeed requires "
    "it)\n",
    "accelerate: main process port 29500 is free\n",
    "Restoring states from the checkpoint path at /runs/exp3/last.ckpt\n",
]
