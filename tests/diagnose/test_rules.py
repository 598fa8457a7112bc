"""Every rule of the knowledge base: a realistic log that triggers it, and a near miss that
must not.  Plus healthy logs that must get nothing, and causes that are not the loudest."""

from __future__ import annotations

from pathlib import Path

import pytest

from safelaunch.diagnose import diagnose, from_text, render
from safelaunch.diagnose.kb import load_rules
from safelaunch.diagnose.sources import from_run_dir

TRACE = "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n"

# the ranks that did start, waiting for a pod that never did
STORE_WAITED = ("torch.distributed.DistStoreError: Timed out after 901 seconds waiting for "
                "clients. 1/2 clients joined.\n")
CASES: dict[str, tuple[str, str]] = {
    # torch's DTensor dispatch, c10/core/Device.cpp, DeepSpeed's mpi_discovery: their wordings
    "collective-on-dtensor": (
        "[rank1]:   File \"/venv/lib/python3.11/site-packages/torch/distributed/tensor/"
        "_dispatch.py\", line 393, in unwrap_to_op_info\n"
        "[rank1]: AssertionError: found no DeviceMesh from dtensor args for "
        "c10d.broadcast_.default!\n",
        "INFO: broadcasting 291 DTensor parameters over DeviceMesh('cuda', [0, 1]) done\n"),
    "device-string-several-gpus": (
        "Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n"
        "    model.to(args.device)\nRuntimeError: Invalid device string: 'cuda:0,1'\n",
        "rank 1 uses device string 'cuda:1' (CUDA_VISIBLE_DEVICES=0,1)\n"),
    "mpirun-local-rank-missing": (
        "  File \"/opt/conda/lib/python3.8/site-packages/deepspeed/comm/comm.py\", line 700, in "
        "mpi_discovery\n    assert cdb.get_world_size() == world_size, \"MPI world size {} does "
        "not match torch world size {}\".format(\nAssertionError: MPI world size 16 does not "
        "match torch world size 8\n",
        "[INFO] [comm.py:673:mpi_discovery] Discovered MPI settings of world_rank=3, "
        "local_rank=3, world_size=16, master_addr=10.0.0.1, master_port=29500\n"),
    # oneCCL 2021.x (atl_ofi_comm.cpp, atl_ofi_helper.cpp) under vLLM's xccl backend
    "oneccl-no-ofi-provider": (
        "2025:06:02-10:11:12:(4242) |CCL_ERROR| atl_ofi_comm.cpp:232 init_transport: EXCEPTION: "
        "failed to initialize ATL\n2025:06:02-10:11:12:(4242) |CCL_ERROR| "
        "atl_ofi_helper.cpp:1118 fi_getinfo error: ret -61, providers 0\n",
        "2025:06:02-10:11:12:(4242) |CCL_WARN| fi_getinfo: provider verbs skipped, using tcp\n"),
    # Lightning 2.1 (fabric/strategies/fsdp.py save_checkpoint)
    "checkpoint-path-exists": (
        "  File \"/venv/lib/python3.10/site-packages/lightning/fabric/strategies/fsdp.py\", "
        "line 435, in save_checkpoint\n    raise FileExistsError(f\"The checkpoint directory "
        "already exists and is not empty: {path}\")\nFileExistsError: The checkpoint directory "
        "already exists and is not empty: /runs/exp1/models/best.ckpt\n",
        "Saving a sharded checkpoint to /runs/exp1/models/step-400.ckpt (directory created)\n"),
    # torch/utils/data/distributed.py
    "sampler-rank-out-of-range": (
        "[rank9]:   File \"/venv/lib/python3.11/site-packages/torch/utils/data/distributed.py\","
        " line 81, in __init__\n[rank9]:     raise ValueError(\n[rank9]: ValueError: Invalid "
        "rank 9, rank should be in the interval [0, 7]\n",
        "DistributedSampler: rank 7 of 8 replicas, 1250 samples per replica\n"),
    # the argument and configuration checks of DeepSpeed and accelerate (their sources)
    "accelerate-deepspeed-optimizer-twice": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
        "<module>\nValueError: You cannot specify an optimizer in the config file and in the "
        "code at the same time. Please remove the optimizer from the config file or create "
        "`accelerate.utils.DummyOptim` in the code.\n",
        "Using accelerate.utils.DummyOptim: the optimizer comes from the DeepSpeed config "
        "file\n"),
    "zero-untested-optimizer": (
        "[rank0]: AssertionError: You are using an untested ZeRO Optimizer. Please add "
        "<\"zero_allow_untested_optimizer\": true> in the configuration file to use it.\n",
        "[INFO] [engine.py:1200:_configure_optimizer] zero_allow_untested_optimizer is set: "
        "using PagedAdamW8bit\n"),
    "deepspeed-hostfile-malformed": (
        "[2024-05-01 10:00:00,000] [ERROR] [runner.py:240:_parse_hostfile] Bad hostfile text: "
        "['worker-0 slot=8']\nValueError: Hostfile contains a bad entry: worker-0 slot=8, "
        "unable to proceed with launching\n",
        "[INFO] [runner.py:570:main] Using hostfile /job/hostfile: worker-0 slots=8, worker-1 "
        "slots=8\n"),
    "deepspeed-multinode-launcher-missing": (
        "[INFO] [runner.py:463:main] Using IP address of 10.0.0.1 for node "
        "worker-0\nRuntimeError: launcher 'pdsh' not installed.\n",
        "[INFO] [multinode_runner.py:80:get_cmd] Running on the following workers: "
        "worker-0,worker-1 (launcher pdsh)\n"),
    "deepspeed-local-rank-mismatch": (
        "[rank1]: AssertionError: Mismatch in local rank setting, args.local_rank=0 but "
        "env['LOCAL_RANK']=1.\n",
        "[INFO] local rank setting: args.local_rank=1, env['LOCAL_RANK']=1\n"),
    "quantized-model-offloaded": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
        "<module>\nValueError: You can't train a model that has been loaded in 8-bit precision "
        "with CPU or disk offload.\n",
        "Loaded the model in 8-bit precision on cuda:0 (no CPU or disk offload)\n"),
    "deepspeed-dtype-config-mismatch": (
        "[rank0]: ValueError: fp16 is enabled but the following parameters have dtype that is "
        "not fp16: model.embed_tokens.weight, lm_head.weight\n",
        "[INFO] [config.py:1000:print] fp16_enabled ................. True (parameters in "
        "fp16)\n"),
    "accelerator-created-twice": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
        "<module>\nValueError: AcceleratorState has already been initialized and cannot be "
        "changed, restart your runtime completely and pass `mixed_precision='bf16'` to "
        "`Accelerator()`.\n",
        "Accelerator() created: AcceleratorState initialized with mixed_precision=bf16\n"),
    "accelerate-state-not-initialized": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
        "<module>\nRuntimeError: You must initialize the accelerate state by calling either "
        "`PartialState()` or `Accelerator()` before using the logging utility.\n",
        "initialize your accelerator first: accelerator = Accelerator() (done)\n"),
    "accelerate-launch-config-invalid": (
        "Traceback (most recent call last):\n  File \"/venv/bin/accelerate\", line 8, in "
        "<module>\nValueError: You need to use at least 2 processes to use `--multi_gpu`.\n",
        "accelerate launch --multi_gpu --num_processes 2 train.py: launching 2 processes\n"),
    "fp8-backend-missing": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
        "<module>\nValueError: Using `fp8` precision requires `transformer_engine` or `MS-AMP` "
        "to be installed.\n",
        "fp8 mixed precision through transformer_engine 1.8 (MS-AMP not installed)\n"),
    # bash running a script whose continued line lost its backslash; Slurm's compressed counts
    "launch-script-line-continuation": (
        "scripts/train.sh: line 15: data.max_length=2048: command not found\n",
        "scripts/train.sh: line 15: data.max_length=2048 (from the config)\n"),
    "slurm-env-compressed-format": (
        "  File \"dist.py\", line 288, in init_slurm\n    local_world_size = int(os.environ["
        "'SLURM_STEP_TASKS_PER_NODE'])\nValueError: invalid literal for int() with base 10: "
        "'1(x2)'\n",
        "SLURM_STEP_TASKS_PER_NODE=1(x2) (one task on each of 2 nodes)\n"),
    # torch 2.4+ ProcessGroupNCCL's heartbeat monitor
    "nccl-watchdog-stuck": (
        "[rank0]:[F1127 10:00:00.000000 4242 ProcessGroupNCCL.cpp:1306] [PG ID 0 PG GUID 0 "
        "Rank 0] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress "
        "in monitoring enqueued collectives.\n",
        "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC=480 (the watchdog's heartbeat monitor is on)\n"),
    # torch/utils/data: a worker's own SIGSEGV handler, then the main process's report
    "dataloader-worker-segfault": (
        "ERROR: Unexpected segmentation fault encountered in worker.\nRuntimeError: DataLoader "
        "worker (pid 4242) is killed by signal: Segmentation fault.\n",
        "DataLoader workers: 8 (pin_memory=True, segmentation masks cached)\n"),
    # torch.distributed's own argument checks (c10d, rendezvous.py, FSDP)
    "init-method-malformed": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
        "<module>\nValueError: Error initializing torch.distributed using tcp:// rendezvous: "
        "port number missing\n",
        "init_method tcp://10.0.0.1:29500 (rendezvous port 29500)\n"),
    "master-port-invalid": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
        "<module>\nRuntimeError: port must have value from 0 to 65535 but was 123456.\n",
        "MASTER_PORT=29500 (a port from 0 to 65535)\n"),
    "p2p-peer-is-self": (
        "[rank0]: ValueError: Invalid destination rank: destination rank should not be the "
        "same as the rank of the current process.\n",
        "send to rank 1 from rank 0 (not the current process)\n"),
    "all-to-all-split-sizes": (
        "[rank3]: RuntimeError: Split sizes doesn't match total dim 0 size\n",
        "all_to_all_single: split sizes [2, 2, 2, 2] match dim 0 size 8\n"),
    "fsdp-module-on-cpu": (
        "[rank0]: RuntimeError: An FSDP-managed module unexpectedly has parameters on cpu. "
        "Make sure to move the module to cuda:0 before training.\n[rank0]: AssertionError: "
        "Expects tensor to be on the compute device cuda:0, was on cpu\n",
        "FSDP compute device cuda:0 (parameters moved from cpu)\n"),
    "fsdp-clip-grad-non-root": (
        "[rank1]: RuntimeError: `clip_grad_norm_()` should only be called on the root FSDP "
        "instance\n",
        "clip_grad_norm_ on the root FSDP instance: total norm 1.02\n"),
    "fsdp-deepcopy": (
        "Traceback (most recent call last):\n  File \"train.py\", line 42, in <module>\n    "
        "ema = copy.deepcopy(model)\nAssertionError: FSDP does not support deepcopy. Please "
        "use state dict for serialization.\n",
        "EMA model kept as a state dict (FSDP: no deepcopy)\n"),
    "launcher-terminated": (
        "W1123 22:36:40.704000 11052 torch/distributed/elastic/agent/server/api.py:753] "
        "Received 15 death signal, shutting down workers\n"
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 11052 got "
        "signal: 15\n",
        "[rank0]: registered a handler for the death signal (SIGTERM)\n"),
    # Slurm's slurmstepd, submitit's preemption handler, Ray's raylet: their own formats.
    "slurm-requeue": (
        "submitit WARNING (2022-08-12 02:06:11,453) - Caught signal SIGUSR2 on gpu-17: this job "
        "is preempted.\nslurmstepd: error: *** JOB 608 ON gpu-17 CANCELLED AT 2022-08-12T02:06:12 "
        "DUE TO JOB REQUEUE ***\nsrun: error: gpu-17: tasks 2-3: Exited with exit code 1\n",
        "submitit INFO (2022-08-12 02:06:11,453) - Requeue is enabled for job 608\n"),
    "slurm-time-limit": (
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
        "slurmstepd: error: *** STEP 4242.0 ON node023 CANCELLED AT 2024-04-20T09:09:37 DUE TO "
        "TIME LIMIT ***\n",
        "sbatch: time limit set to 2-00:00:00 for job 4242\n"),
    "slurm-cancelled": (
        "slurmstepd: error: *** JOB 4242 ON node023 CANCELLED AT 2024-04-20T09:09:37 ***\n",
        "scancel is not used by this workflow; job 4242 was not cancelled\n"),
    "ray-memory-pressure": (
        "(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 "
        "Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to "
        "other reasons at node (ID: 351e, IP: 10.95.143.76) over the last time period.\n",
        "(raylet) memory monitor: 41% of host memory used, no worker killed\n"),
    "nccl-library-mismatch": (
        "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
        "ImportError: /venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined "
        "symbol: ncclCommRegister\n",
        "NCCL INFO ncclCommRegister: buffer registered\n"),
    "nccl-cpu-tensor": (
        TRACE + "    model = DistributedDataParallel(model)\nRuntimeError: Tensors must be CUDA "
        "and dense\n",
        "all tensors are CUDA and dense: moved to cuda:1\n"),
    "ddp-module-attribute": (
        TRACE + "    anchors = model.model[-1].anchor_grid\nAttributeError: "
        "'DistributedDataParallel' object has no attribute 'model'\n",
        "using model.module.model (DistributedDataParallel unwrapped)\n"),
    "not-launched": (
        TRACE + "    rank = int(os.environ['RANK'])\n  File \"/usr/lib/python3.10/os.py\", line "
        "680, in __getitem__\n    raise KeyError(key) from None\nKeyError: 'RANK'\n",
        "RANK=1 WORLD_SIZE=2 MASTER_ADDR=10.0.0.2 read from the environment\n"),
    "fp16-loss-scale": (
        "[2023-07-26 15:19:24,960] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! "
        "Rank 0 Skipping step.\nException: Current loss scale already at minimum - cannot "
        "decrease scale anymore. Exiting run.\n",
        "[deepspeed] loss scale 65536, minimum 1: fine\n"),
    "torch-without-cuda": (
        TRACE + "    model.cuda()\n  File \"/venv/lib/python3.10/site-packages/torch/cuda/"
        "__init__.py\", line 310, in _lazy_init\n    raise AssertionError(\"Torch not compiled "
        "with CUDA enabled\")\nAssertionError: Torch not compiled with CUDA enabled\n",
        "torch 2.4.0+cu124 (compiled with CUDA 12.4), 8 GPUs visible\n"),
    # From torch's CUDA context check (c10/cuda) and the CUDA runtime's error string.
    "cuda-driver-too-old": (
        TRACE + "RuntimeError: The NVIDIA driver on your system is too old (found version "
        "11040). Please update your GPU driver by downloading and installing a new version "
        "from the URL: http://www.nvidia.com/Download/index.aspx\n",
        "NVIDIA driver 550.54 (CUDA 12.4), torch built for CUDA 12.1: ok\n"),
    "no-kernel-image": (
        "[rank0]: RuntimeError: CUDA error: no kernel image is available for execution on "
        "the device\n[rank0]: CUDA kernel errors might be asynchronously reported at some "
        "other API call, so the stacktrace below might be incorrect.\n",
        "kernel image cache: 12 entries\n"),
    "cuda-illegal-access": (
        "[rank1]: RuntimeError: CUDA error: device-side assert triggered\n[rank1]: CUDA kernel "
        "errors might be asynchronously reported at some other API call\n",
        "assertions enabled in the data pipeline\n"),
    # NCCL's transport/net_ib.cc WARN format, and torch's "Last error:" echo of it.
    "nccl-network": (
        "gpu-node-3:5521:5690 [2] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.3<0>\n"
        "gpu-node-3:5521:5690 [2] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion "
        "from peer 10.0.0.4<39553> with status=12 opcode=0 len=0 vendor err 129 (Recv) "
        "localGid ::ffff:10.0.0.3 remoteGids::ffff:10.0.0.4 hca mlx5_0\n"
        "[rank2]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
        "[rank2]: ncclSystemError: System call (e.g. socket, malloc) or external library call "
        "failed or device error.\n",
        "gpu-node-3:5521:5690 [2] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.3<0>\n"
        "gpu-node-3:5521:5690 [2] NCCL INFO Channel 00/0 : 2[2] -> 3[3] [send] via NET/IB/0\n"),
    # NCCL's shmutils.cc WARN format.
    # torch 2.x distributed_c10d.recv on a group without device_id: ProcessGroupNCCL's
    # broadcastUniqueNCCLID timing out in the store while it lazily creates the communicator.
    "nccl-device-id-missing": (
        '[rank2]:   File "/opt/conda/lib/python3.11/site-packages/torch/distributed/'
        'distributed_c10d.py", line 2414, in recv\n'
        "[rank2]:     return group.recv([tensor], group_src, tag).wait()\n"
        "[rank2]: torch.distributed.DistBackendError: [2] is setting up NCCL communicator and "
        "retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but "
        "store->get('0') got error: wait timeout after 600000ms, keys: /default_pg/0//cuda//0\n",
        "[rank2]: pipeline stage 1: group.recv([tensor], 0) from stage 0 done in 0.8 ms\n"
        "gpu-2:812:1043 [2] NCCL INFO comm 0x5 rank 2 nranks 4 cudaDev 2 busId 41000 - Init "
        "COMPLETE\n"),
    "nccl-shm": (
        "trainer:812:1043 [0] include/shmutils.h:30 NCCL WARN Error while creating shared "
        "memory segment /dev/shm/nccl-8Dk2Lc (size 9637888)\n"
        "[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n",
        "trainer:812:1043 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct\n"),
    "nccl-p2p": (
        "trainer:812:1043 [1] transport/p2p.cc:275 NCCL WARN Cuda failure 'peer access is not "
        "supported between these two devices'\n",
        "trainer:812:1043 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/IPC\n"),
    "collective-timeout": (
        "[rank0]:[E1122 10:00:01 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=600000) ran for 600055 milliseconds before timing out.\n",
        "[rank0]: setting NCCL timeout to 600000 ms for collective operations\n"),
    "collective-mismatch": (
        "[rank0]: RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is "
        "running collective: CollectiveFingerPrint(SequenceNumber=0, OpType=ALLREDUCE, "
        "TensorShape=[3]), but Rank 1 is running collective: CollectiveFingerPrint("
        "SequenceNumber=0, OpType=BROADCAST, TensorShape=[2]).\n",
        "[rank0]: collectives checked on ranks 0, 1: no mismatch\n"),
    "ddp-marked-ready-twice": (
        "[rank1]: RuntimeError: Expected to mark a variable ready only once. This error is "
        "caused by one of the following reasons: 1) Use of a module parameter outside the "
        "`forward` function.\n",
        "[rank1]: variable layer.bias ready for reduction\n"),
    "process-group-not-initialized": (
        TRACE + "ValueError: Default process group has not been initialized, please make sure "
        "to call init_process_group.\n",
        "Default process group initialized (backend gloo, world size 2)\n"),
    "too-many-open-files": (
        "[rank1]: OSError: [Errno 24] Too many open files: '/data/shard_0012.bin'\n",
        "open files: 312 of 65536 allowed\n"),
    "libuv-missing": (
        "torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built "
        "without libuv support, run with USE_LIBUV=0 to disable it.\n",
        "TCPStore: using libuv backend\n"),
    "host-not-resolved": (
        TRACE + "    dist.init_process_group('nccl')\nsocket.gaierror: [Errno -2] Name or "
        "service not known\n",
        "[W1123 22:34:52 socket.cpp:764] [c10d] The IPv6 network addresses of (node-0.cluster, "
        "29500) cannot be retrieved (gai error: -2 - Name or service not known).\n"
        "epoch 0 step 1 loss 2.3026\n"),
    "store-timeout": (
        "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. "
        "1/2 clients joined.\n",
        "TCPStore: 2/2 clients joined after 3 seconds\n"),
    "local-rank-argument": (
        "usage: train.py [-h] [--epochs EPOCHS]\ntrain.py: error: unrecognized arguments: "
        "--local-rank=1\n",
        "using LOCAL_RANK=1 from the environment (no --local-rank argument needed)\n"),
    "gpu-physics-buffer-too-small": (
        TRACE + "ValueError: MuJoCo naconmax (25600) exceeds contacts.rigid_contact_max (3840). "
        "Create Contacts with at least rigid_contact_max=25600.\n",
        "[INFO]: Physics buffers: gpu_max_rigid_patch_count=163840, "
        "gpu_found_lost_pairs_capacity=2097152\n"),
    "cuda-oom": (
        TRACE + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 "
        "has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n",
        "memory summary: allocated 10.2 GiB, reserved 12.0 GiB, peak 40 GiB out of 80 GiB\n"),
    "nccl-duplicate-gpu": (
        "[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
        "invalid usage, NCCL version 2.21.5\n[rank1]: ncclInvalidUsage: This usually reflects "
        "invalid usage of NCCL library.\n[rank1]: Duplicate GPU detected : rank 1 and rank 0 "
        "both on CUDA device 1b000\n",
        "[rank1]: GPU 1b000 selected for rank 1\n"),
    "nccl-error": (
        "[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/"
        "c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), "
        "NCCL version 2.18.3\n[rank0]: ncclSystemError: System call (e.g. socket, malloc) or "
        "external library call failed or device error.\n",
        "NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\nNCCL INFO NET/Plugin: No plugin found\n"),
    "tinycudann-arch-mismatch": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/tinycudann/modules.py\", line 51,"
        " in _get_system_compute_capability\nRuntimeError: Could not find compatible tinycudann "
        "extension for compute capability 86.\n",
        "/usr/local/lib/python3.10/dist-packages/tinycudann/modules.py:53: UserWarning: "
        "tinycudann was built for lower compute capability (75) than the system's (86). "
        "Performance may be suboptimal.\n"),
    "ops-setup-sees-no-cuda": (
        "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n"
        "Traceback (most recent call last):\n  File \"setup.py\", line 43, in get_extensions\n"
        "    raise NotImplementedError('Cuda is not availabel')\n"
        "NotImplementedError: Cuda is not availabel\n",
        "building 'MultiScaleDeformableAttention' extension (Cuda is available: True)\n"),
    "yolov5-checkpoint-newer-than-code": (
        TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/torch/serialization.py\", line "
        "1046, in find_class\n    return super().find_class(mod_name, name)\nAttributeError: "
        "Can't get attribute 'SPPF' on <module 'models.common' from '/yolov5/models/common.py'>\n",
        "Fusing layers... SPPF from models.common loaded (yolov5s summary: 213 layers)\n"),
    "pickled-model-older-torch": (
        TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/torch/nn/modules/upsampling.py\""
        ", line 154, in forward\n    recompute_scale_factor=self.recompute_scale_factor)\n"
        "AttributeError: 'Upsample' object has no attribute 'recompute_scale_factor'\n",
        "Upsample(scale_factor=2.0, mode='nearest') recompute_scale_factor=None\n"),
    "yolov5-loss-float-clamp": (
        TRACE + "  File \"/yolov5/utils/loss.py\", line 198, in build_targets\n    indices.append("
        "(b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))\nRuntimeError: result "
        "type Float can't be cast to the desired output type long int\n",
        "      Epoch    GPU_mem   box_loss   obj_loss   cls_loss  Instances       Size\n"),
    "yolo-labels-not-found": (
        "train: Scanning /content/datasets/train/labels... 0 images, 500 backgrounds, 0 corrupt\n"
        + TRACE + "AssertionError: train: No labels found in /content/datasets/train/labels.cache"
        ", can not start training. See https://docs.ultralytics.com/yolov5/tutorials/"
        "train_custom_data\n",
        "train: WARNING ⚠️ No labels found in /content/datasets/train/labels.cache, training may "
        "not work correctly. See https://docs.ultralytics.com/datasets/detect for dataset "
        "formatting guidance.\n"),
    "ultralytics-dataset-path": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/ultralytics/data/utils.py\", "
        "line 328, in check_det_dataset\n    raise FileNotFoundError(m)\nFileNotFoundError: \n"
        "Dataset 'data.yaml' images not found ⚠️, missing path '/content/datasets/valid/images'\n"
        "Note dataset download directory is '/content/datasets'. You can update this in "
        "'/root/.config/Ultralytics/settings.yaml'\n",
        # check_det_dataset's warning where the yaml has a download: script (it trains on)
        "Dataset 'coco128.yaml' images not found ⚠️, missing path '/content/datasets/coco128/"
        "images/train2017'\nDownloading https://ultralytics.com/assets/coco128.zip to "
        "'/content/datasets/coco128.zip'...\n"),
    "mmdet-num-classes-mismatch": (
        TRACE + "  File \"/mmdetection/mmdet/datasets/utils.py\", line 142, in _check_head\n"
        "    assert module.num_classes == len(dataset.CLASSES), \\\nAssertionError: The "
        "`num_classes` (80) in Shared2FCBBoxHead of MMDistributedDataParallel does not matches "
        "the length of `CLASSES` 1) in CocoDataset\n",
        "bbox_head: num_classes=1, dataset CLASSES=('balloon',)\n"),
    "openmmlab-dataset-empty": (
        "Traceback (most recent call last):\n  File \"/mmdetection/mmdet/datasets/samplers/"
        "group_sampler.py\", line 16, in __init__\n    self.flag = dataset.flag.astype(np.int64)"
        "\n  File \"<__array_function__ internals>\", line 6, in concatenate\n"
        "ValueError: need at least one array to concatenate\n",
        "mmdet - INFO - dataset: 1200 images after filter_empty_gt\n"),
    "detectron2-config-key-unknown": (
        TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/yacs/config.py\", line 491, in "
        "_merge_a_into_b\n    raise KeyError(\"Non-existent config key: {}\".format(full_key))\n"
        "KeyError: 'Non-existent config key: MODEL.MASK_FORMER'\n",
        "[config] MODEL.MASK_FORMER.NUM_OBJECT_QUERIES: 100\n"),
    "detectron2-registry-missing": (
        TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/fvcore/common/registry.py\", "
        "line 71, in get\n    raise KeyError(\nKeyError: \"No object named 'MaskFormer' found in "
        "'META_ARCH' registry!\"\n",
        "Registered 'MaskFormer' in 'META_ARCH' registry\n"),
    "openmmlab-registry-missing": (
        TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/mmcv/utils/registry.py\", line "
        "61, in build_from_cfg\n    raise KeyError(\nKeyError: 'MyDataset is not in the dataset "
        "registry'\n",
        "05/01 10:00:00 - mmengine - WARNING - Failed to search registry with scope \"mmdet\" in "
        "the \"dataset\" registry tree. As a workaround, the current \"dataset\" registry in "
        "\"mmengine\" is used to build instance.\n"),
    "clip-context-length": (
        TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/clip/clip.py\", line 234, in "
        "tokenize\n    raise RuntimeError(f\"Input {texts[i]} is too long for context length "
        "{context_length}\")\nRuntimeError: Input a photo of a dog running across a very long "
        "field ... is too long for context length 77\n",
        "Token indices sequence length is longer than the specified maximum sequence length "
        "for this model (93 > 77). Running this sequence through the model will result in "
        "indexing errors\n"),
    "pillow-removed-name": (
        TRACE + "  File \"/yolov5/utils/plots.py\", line 87, in box_label\n    w, h = self.font."
        "getsize(label)  # text width, height\nAttributeError: 'FreeTypeFont' object has no "
        "attribute 'getsize'\n",
        "/yolov5/utils/plots.py:92: DeprecationWarning: getsize is deprecated and will be "
        "removed in Pillow 10 (2023-07-01). Use getbbox or getlength instead.\n"),
    "extension-glm-headers-missing": (
        "/gaussian-splatting/submodules/diff-gaussian-rasterization/cuda_rasterizer/backward.h:"
        "19:10: fatal error: glm/glm.hpp: No such file or directory\n   19 | #include "
        "<glm/glm.hpp>\ncompilation terminated.\nerror: command '/usr/local/cuda/bin/nvcc' "
        "failed with exit code 1\n",
        "-- Found glm: /usr/include/glm/glm.hpp\n"),
    "launch-script-not-executable": (
        "bash: ./tools/dist_train.sh: Permission denied\nsrun: error: node1: task 0: Exited "
        "with exit code 126\n",
        "bash: /etc/profile.d/conda.sh: Permission denied\nEpoch 0: loss 2.31\n"),
    "mmcv-1x-code-on-mmcv-2": (
        TRACE + "  File \"/mmsegmentation/mmseg/apis/train.py\", line 7, in <module>\n    from "
        "mmcv.runner import HOOKS, build_optimizer, build_runner\nModuleNotFoundError: No module "
        "named 'mmcv.runner'\n",
        "mmcv 1.7.2 (mmcv.runner) loaded\n"),
    "mmcv-ext-dll-mismatch": (
        TRACE + "  File \"C:\\\\Users\\\\me\\\\anaconda3\\\\envs\\\\mm\\\\lib\\\\site-packages\\\\"
        "mmcv\\\\utils\\\\ext_loader.py\", line 13, in load_ext\n    ext = importlib."
        "import_module('mmcv.' + name)\nImportError: DLL load failed while importing _ext: The "
        "specified procedure could not be found.\n",
        "mmcv: loaded mmcv._ext (CUDA 11.3, torch 1.10.0)\n"),
    "torchvision-removed-module": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/basicsr/data/degradations.py\""
        ", line 8, in <module>\n    from torchvision.transforms.functional_tensor import "
        "rgb_to_grayscale\nModuleNotFoundError: No module named "
        "'torchvision.transforms.functional_tensor'\n",
        "/usr/local/lib/python3.10/dist-packages/torchvision/transforms/functional_tensor.py:5: "
        "UserWarning: The torchvision.transforms.functional_tensor module is deprecated in 0.15 "
        "and will be **removed in 0.17**. Please don't rely on it.\n"),
    "detectron2-dataset-not-registered": (
        "-- Process 1 terminated with the following error:\nTraceback (most recent call last):\n"
        "  File \"/detectron2/detectron2/data/catalog.py\", line 58, in get\n    raise KeyError(\n"
        "KeyError: \"Dataset 'my_dataset_train' is not registered! Available datasets are: "
        "coco_2014_train, coco_2014_val_100\"\n",
        "Dataset 'my_dataset_train' registered with 1200 images\n"),
    "detectron2-dataset-empty": (
        TRACE + "  File \"/detectron2/detectron2/data/build.py\", line 248, in "
        "get_detection_dataset_dicts\n    assert len(dicts), \"Dataset '{}' is empty!\".format("
        "dataset_name)\nAssertionError: Dataset 'my_dataset_train' is empty!\n",
        "Loaded 1200 images in COCO format from train.json; dataset 'my_dataset_train' ready\n"),
    "unused-parameters": (
        "[rank0]: RuntimeError: Expected to have finished reduction in the prior iteration "
        "before starting a new one. This error indicates that your module has parameters that "
        "were not used in producing loss.\n"
        "[rank1]: Parameter indices which did not receive grad for rank 1: 14 15\n",
        "[rank0]: reduction finished for bucket 3\n[rank1]: all parameters received gradients\n"),
    "dataloader-worker-killed": (
        "RuntimeError: DataLoader worker (pid(s) 4177) exited unexpectedly\n",
        "DataLoader: 8 workers started (pid 4177 ... 4184)\n"),
    "shm-exhausted": (
        "ERROR: Unexpected bus error encountered in worker. This might be caused by "
        "insufficient shared memory (shm).\n",
        "Using /dev/shm for the dataset cache (64 GiB free)\n"),
    "disk-full": (
        TRACE + "OSError: [Errno 28] No space left on device: 'checkpoints/step_4000.pt'\n",
        "disk usage: 40 GiB used, plenty of space left on the device\n"),
    "address-in-use": (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any "
        "local network address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, "
        "message: address already in use\n",
        "MASTER_PORT=29500 (checked: free)\n"),
    "master-addr-unreachable": (
        "[W socket.cpp:663] [c10d] The client socket has failed to connect to [10.0.0.1]:29500 "
        "(errno: 110 - Connection timed out).\n" * 2
        + "torch.distributed.DistStoreError: The client socket has timed out after 600000ms "
        "while trying to connect to (10.0.0.1, 29500).\n",
        # a rank that retried while node 0 came up, then trained
        "[W socket.cpp:663] [c10d] The client socket has failed to connect to [10.0.0.1]:29500 "
        "(errno: 110 - Connection timed out).\n" * 2
        + "".join(f"step {n} loss 2.{n:02d}\n" for n in range(5))),
    # torch_xla 1.x's XRT client (xrt_computation_client.cc)
    "tpu-vm-runtime-version": (
        "RuntimeError: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:421 : Check "
        "failed: session->session()->Run(session_work->feed_inputs, session_work->outputs_handles"
        ", &outputs) == ::tensorflow::Status::OK() (Not found: Op type not registered "
        "'XRTAllocateFromTensor' in binary running on t1v-n-1055e3aa-w-0. Make sure the Op and "
        "Kernel are registered in the binary running in this process.\n",
        "INFO: ops registered in binary running on t1v-n-1055e3aa-w-0: XRTAllocateFromTensor\n"),
    "xla-xrt-tpu-v4-num-devices": (
        "RuntimeError: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:1403 : Check "
        "failed: parsed_device.id <= topology_proto->num_tpu_devices_per_task() (5 vs. 4)\n",
        "topology: num_tpu_devices_per_task=4, parsed_device.id=3\n"),
    # MapAllocator.cpp's mmap of a shared tensor failing with ENOMEM (the map count); the
    # same call failing otherwise is /dev/shm's
    "spawn-args-not-tuple": (
        "Traceback (most recent call last):\n  File \"main.py\", line 526, in <module>\n"
        "    mp.spawn(main, nprocs=cfg.world_size, args=(cfg))\n"
        "torch.multiprocessing.spawn.ProcessRaisedException: \n\n-- Process 1 terminated with the "
        "following error:\nTraceback (most recent call last):\n  File \"/opt/conda/lib/python3.10/"
        "site-packages/torch/multiprocessing/spawn.py\", line 90, in _wrap\n    fn(i, *args)\n"
        "TypeError: main() takes 2 positional arguments but 63 were given\n",
        "mp.spawn(main, args=(cfg,), nprocs=2): main(rank, cfg) started on 2 ranks\n"),
    "mpirun-not-enough-slots": (
        "-----------------------------------------------------------------------\n"
        "There are not enough slots available in the system to satisfy the 8\n"
        "slots that were requested by the application:\n\n  python\n\n"
        "Either request fewer slots for your application, or make more slots available\n"
        "for use.\n",
        "mpirun -np 8 --oversubscribe python train.py: 8 slots available, 8 processes started\n"),
    "mmap-count-limit": (
        TRACE + "RuntimeError: unable to mmap 4096 bytes from file </torch_362873_3123855485_"
        "63350>: Cannot allocate memory (12)\n",
        "vm.max_map_count = 65530; mapped 4096 bytes from file </torch_362873_3123855485_63350>\n"),
    "visible-devices-uuid": (
        TRACE + "ValueError: invalid literal for int() with base 10: "
        "'MIG-74d68ce8-f74a-5408-a325-06b493f31c14'\n",
        "CUDA_VISIBLE_DEVICES=MIG-74d68ce8-f74a-5408-a325-06b493f31c14 (1 device)\n"),
    # transformer_engine/common/fused_attn (TransformerEngine 1.12)
    "te-fused-attn-unsupported-shape": (
        "RuntimeError: /opt/TransformerEngine/transformer_engine/common/fused_attn/"
        "fused_attn_f16_arbitrary_seqlen.cu:681 in function operator(): cuDNN Error: No valid "
        "engine configs for MUL_Reduction_MUL_Matmul_Reshape_Matmul_IDENTITY_. For more "
        "information, enable cuDNN error logging\n",
        "[INFO] fused_attn backend: F16_arbitrary_seqlen (cuDNN engine configs: 3 valid)\n"),
    # sat/mpu/initialize.py (SwissArmyTransformer)
    "sat-node-group-needs-local-world-size": (
        "  File \"/opt/conda/lib/python3.10/site-packages/sat/mpu/initialize.py\", line 122, in "
        "get_node_group\n    assert _NODE_GROUP is not None, \\\nAssertionError: node group is "
        "not initialized, please pass LOCAL_WORLD_SIZE environment variable.\n",
        "LOCAL_WORLD_SIZE=4: node group initialized\n"),
    # DeepSpeed 0.16 runtime/zero/stage_1_and_2.py
    "deepspeed-backward-outside-engine": (
        TRACE + "    loss.backward()\nAttributeError: 'DeepSpeedZeroOptimizer' object has no "
        "attribute 'ipg_index'\n",
        "[INFO] DeepSpeedZeroOptimizer: ipg_index reset after engine.backward\n"),
    # torchtitan/distributed/parallel_dims.py
    "parallelize-requests-disabled-mesh": (
        TRACE + "ValueError: Mesh 'tp' is not available. Ensure the corresponding parallelism "
        "dimension is enabled (size > 1).\n",
        "[titan] Mesh 'dp_shard' is available: size 4\n"),
    "rendezvous-failed": (
        "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to "
        "the C10d store has failed. See inner exception for details.\n",
        "rendezvous complete: 2 nodes joined\n"),
    "no-cuda-device": (
        "[rank3]: RuntimeError: CUDA error: invalid device ordinal\n[rank3]: CUDA kernel "
        "errors might be asynchronously reported at some other API call.\n",
        "device ordinal 3 assigned to rank 3\n"),
    "gpu-hardware-error": (
        "[ 5032.1] NVRM: Xid (PCI:0000:3b:00): 79, pid=2211, GPU has fallen off the bus.\n",
        "GPU 0000:3b:00 on the bus, link width x16\n"),
    "device-mismatch": (
        "[rank0]: RuntimeError: Expected all tensors to be on the same device, but found at "
        "least two devices, cuda:0 and cpu!\n",
        "[rank0]: all tensors moved to cuda:0\n"),
    "state-dict-keys": (
        "RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "
        "\"fc.weight\", \"fc.bias\".\n\tUnexpected key(s) in state_dict: \"module.fc.weight\", "
        "\"module.fc.bias\".\n",
        "loaded state_dict with 24 keys\n"),
    "checkpoint-keyerror": (
        TRACE + "    model.load_state_dict(ckpt['model_state_dict'])\nKeyError: "
        "'model_state_dict'\n",
        "no 'learning_rate_warmup_steps' in the config defaults: KeyError avoided\n"),
    "compiled-module-not-built": (
        TRACE + "    from pointnet2_ops import pointnet2_utils\n  File \"/repo/pointnet2_ops_lib/"
        "pointnet2_ops/pointnet2_utils.py\", line 6, in <module>\n    import pointnet2_ops._ext "
        "as _ext\nModuleNotFoundError: No module named 'pointnet2_ops._ext'\n",
        "copying build/lib.linux-x86_64-cpython-310/pointnet2_ops/_ext.cpython-310-x86_64-linux-"
        "gnu.so -> pointnet2_ops\n"),
    "module-not-found": (
        TRACE + "ModuleNotFoundError: No module named 'mypackage'\n",
        "checking module mypackage: found\n"),
    "nan-loss": (
        "step 1200 loss: nan lr 3e-4\n",
        "step 1200 loss: 2.3451 lr 3e-4 (nan count in data: 0)\n"),
    "gloo-exit-abort": (
        "training finished\nterminate called without an active exception\nFatal Python error: "
        "Aborted\n",
        "training finished\n"),
    "segfault": (
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call "
        "first):\n  File \"ext.py\", line 3 in run\n",
        "segmentation of the dataset finished\n"),
    "native-abort": (
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  "
        "shard index out of range\nFatal Python error: Aborted\n",
        "the loader will terminate after throwing away stale shards\n"),
    "terminated-by-signal": (
        "step 4000 loss 0.12\nTerminated\n",
        "Terminated workers: 0 (all healthy)\n"),
    "peer-died-silently": (
        "[rank0]: Traceback (most recent call last):\n[rank0]:   File \"train.py\", line 9, in "
        "<module>\n[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] "
        "Connection closed by peer [127.0.0.1]:2993. This is typically caused by a remote "
        "worker crashing.\n",
        "2024-01-01 12:00:00 INFO client: Connection reset by peer, reconnecting\n"),
    "oom-killer": (
        "[12345.6] Out of memory: Killed process 4242 (python) total-vm:98765432kB\n",
        "memory check: 12 GiB free\n"),
    # The wrong setup of a DDP/FSDP/DeepSpeed/vLLM run, each told by the library's own words.
    "ddp-module-device": (
        TRACE + "    model = DDP(model, device_ids=[local_rank])\nValueError: "
        "DistributedDataParallel device_ids and output_device arguments only work with "
        "single-device/multiple-device GPU modules or CPU modules, but got device_ids [0], "
        "output_device 0, and module parameters {device(type='cpu')}.\n",
        "wrapping the model: DistributedDataParallel(device_ids=[0]) on cuda:0\n"),
    "ddp-buffer-inplace": (
        TRACE + "    loss.backward()\nRuntimeError: one of the variables needed for gradient "
        "computation has been modified by an inplace operation: [torch.cuda.FloatTensor [256]] "
        "is at version 3; expected version 2 instead.\n",
        "broadcast_buffers=True: the BatchNorm running stats follow rank 0\n"),
    "fsdp-mixed-requires-grad": (
        TRACE + "    model = FSDP(model, auto_wrap_policy=policy)\nValueError: Must flatten "
        "tensors with uniform requires_grad when use_orig_params=False\n",
        "FSDP use_orig_params=True: 1.2M trainable parameters, 6.7B frozen\n"),
    "amp-fp16-params": (
        TRACE + "    scaler.unscale_(optimizer)\nValueError: Attempting to unscale FP16 "
        "gradients.\n",
        "GradScaler: scale 65536.0, model loaded in float32, autocast fp16\n"),
    "tp-size-indivisible": (
        TRACE + "    engine = LLMEngine.from_engine_args(engine_args)\nValueError: Total number "
        "of attention heads (40) must be divisible by tensor parallel size (3).\n",
        "INFO tensor_parallel_size=4: 40 attention heads, 10 per rank\n"),
    "batch-size-mismatch": (
        "[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal "
        "to micro_batch_per_gpu * gradient_acc_step * world_size 32 != 4 * 4 * 1\n",
        "[INFO] train_batch_size 64 = micro_batch_per_gpu 4 * gradient_acc_step 2 * 8 GPUs\n"),
    "sampler-shuffle": (
        TRACE + "    loader = DataLoader(ds, sampler=sampler, shuffle=True)\nValueError: sampler "
        "option is mutually exclusive with shuffle\n",
        "DataLoader: DistributedSampler(shuffle=True), set_epoch(3)\n"),
    "syncbn-without-ddp": (
        TRACE + "    x = self.bn1(x)\nValueError: SyncBatchNorm expected input tensor to be on "
        "GPU\n",
        "converted 53 BatchNorm layers to SyncBatchNorm before wrapping with DDP\n"),
    "spawn-pickle": (
        TRACE + "    mp.spawn(main_worker, nprocs=4)\nAttributeError: Can't pickle local object "
        "'build_loader.<locals>.<lambda>'\n",
        "pickled the dataset for 4 workers (start method: spawn)\n"),
    "extension-build-failed": (
        "Building extension module fused_adam...\n[1/3] /usr/local/cuda/bin/nvcc -c "
        "multi_tensor_adam.cu -o multi_tensor_adam.cuda.o\nFAILED: multi_tensor_adam.cuda.o\n"
        "nvcc fatal   : Value 'c++17' is not defined for option 'std'\n"
        "ninja: build stopped: subcommand failed.\n",
        "Loading extension module fused_adam...\nTime to load fused_adam op: 0.31 seconds\n"),
    "cpu-oom": (
        TRACE + "    batch = torch.stack(samples)\nRuntimeError: [enforce fail at alloc_cpu.cpp:"
        "83] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate "
        "3221225472 bytes. Error code 12 (Cannot allocate memory)\n",
        "host memory: 240 GiB free, DataLoader workers 8\n"),
    "node-preempted": (
        "2025-03-02 04:11:09 start-worker: GCP Metadata Service says termination is imminent\n"
        "[rank3]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Read "
        "error [10.0.0.7]:3142: Connection reset by peer\n",
        "instance is not preemptible (provisioning model: STANDARD)\n"),
    "cuda-fork-after-init": (
        TRACE + "    for batch in loader:\nRuntimeError: Caught RuntimeError in DataLoader worker "
        "process 0.\nRuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA "
        "with multiprocessing, you must use the 'spawn' start method\n",
        "multiprocessing start method: spawn (CUDA initialised in the parent)\n"),
    "nccl-version-mismatch": (
        "node-2:4827:6900 [4] bootstrap.cc:77 NCCL WARN Message truncated : received 256 bytes "
        "instead of 4\nnode-2:4827:6900 [4] NCCL INFO bootstrap.cc:432 -> 3\n",
        "node-2:4827:6900 [4] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"),
    "bf16-unsupported": (
        TRACE + "    with torch.autocast('cuda', dtype=torch.bfloat16):\n  File \"/usr/lib/"
        "python3.10/site-packages/torch/amp/autocast_mode.py\", line 306, in __init__\n"
        "RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to "
        "float16.\n",
        "bf16 supported: True, using torch.bfloat16 for autocast\n"),
    "too-many-peers": (
        TRACE + "    torch.cuda.set_device(local_rank)\nRuntimeError: CUDA error: peer mapping "
        "resources exhausted\n",
        "peer mappings: 7 of 8 in use\n"),
    "collective-non-contiguous": (
        TRACE + "    dist.all_gather(gathered, weight.t())\n  File \"/usr/lib/python3.10/site-"
        "packages/torch/distributed/distributed_c10d.py\", line 3036, in all_gather\n"
        "    work = default_pg.allgather([tensor_list], [tensor])\n"
        "ValueError: Tensors must be contiguous\n",
        "gathered 8 contiguous tensors of shape [1024, 512]\n"),
    "gloo-socket-ifname": (
        TRACE + "    dist.init_process_group('gloo')\nRuntimeError: [enforce fail at "
        "../third_party/gloo/gloo/transport/tcp/device.cc:84] ifa != nullptr. Unable to find "
        "address for: ^lo\n",
        "GLOO_SOCKET_IFNAME=eth0: found address 10.0.0.4 for eth0\n"),
    "mkl-threading-layer": (
        "Error: mkl-service + Intel(R) MKL: MKL_THREADING_LAYER=INTEL is incompatible with "
        "libgomp.so.1 library.\n\tTry to import numpy first or set the threading layer "
        "accordingly. Set MKL_SERVICE_FORCE_INTEL to force it.\n",
        "MKL_THREADING_LAYER=GNU set; numpy 1.26 imported first\n"),
    "ddp-no-trainable-params": (
        TRACE + "    model = accelerator.prepare(reward_model)\nRuntimeError: "
        "DistributedDataParallel is not needed when a module doesn't have any parameter that "
        "requires a gradient.\n",
        "DistributedDataParallel wraps 124M parameters that require a gradient\n"),
    "ddp-uninitialized-params": (
        TRACE + "    model = DistributedDataParallel(model, device_ids=[rank])\nRuntimeError: "
        "Modules with uninitialized parameters can't be used with `DistributedDataParallel`. "
        "Run a dummy forward pass to correctly initialize the modules\n",
        "dummy forward pass done: every lazy module initialized\n"),
    "zero-offload-client-optimizer": (
        TRACE + "    engine, *_ = deepspeed.initialize(model=model, optimizer=opt, config=cfg)\n"
        "deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a "
        "client provided optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases "
        "will yield poor performance.\n",
        "[deepspeed] ZeRO-Offload with DeepSpeedCPUAdam: optimizer offloaded to cpu\n"),
    "zero-no-sync": (
        TRACE + "    with accelerator.accumulate(model):\n  File \"/venv/lib/python3.10/site-"
        "packages/deepspeed/runtime/engine.py\", line 1995, in no_sync\nAssertionError: "
        "no_sync context manager is incompatible with gradient partitioning logic of ZeRO "
        "stage 3\n",
        "gradient accumulation: 4 steps, reduced by ZeRO stage 3\n"),
    "ds-hf-config-mismatch": (
        "ValueError: Please correct the following DeepSpeed config values that mismatch "
        "TrainingArguments values:\n- ds train_micro_batch_size_per_gpu=4 vs hf "
        "per_device_train_batch_size=8\n",
        "DeepSpeed config values match TrainingArguments (auto values filled in)\n"),
    "torchvision-torch-mismatch": (
        TRACE + "    import torchvision\n  File \"/venv/lib/python3.10/site-packages/torchvision/"
        "_meta_registrations.py\", line 164, in <module>\n    def meta_nms(dets, scores, "
        "iou_threshold):\nRuntimeError: operator torchvision::nms does not exist\n",
        "torchvision 0.19.1 registered operator torchvision::nms for torch 2.4.1\n"),
    "ninja-missing": (
        TRACE + "    fused_adam = FusedAdamBuilder().load()\n  File \"/venv/lib/python3.10/"
        "site-packages/torch/utils/cpp_extension.py\", line 1683, in verify_ninja_availability"
        "\n    raise RuntimeError(\"Ninja is required to load C++ extensions\")\nRuntimeError: "
        "Ninja is required to load C++ extensions\n",
        "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root... ninja "
        "found: 1.11.1\n"),
    "glibc-too-old": (
        TRACE + "    import flash_attn_2_cuda as flash_attn_cuda\nImportError: /lib/x86_64-linux-gnu"
        "/libc.so.6: version `GLIBC_2.32' not found (required by /venv/lib/python3.10/site-"
        "packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so)\n",
        "ldd (Ubuntu GLIBC 2.35-0ubuntu3.8) 2.35: GLIBC_2.32 found\n"),
    "nvcc-gcc-too-new": (
        "/usr/local/cuda/include/crt/host_config.h:132:2: error: #error -- unsupported GNU "
        "version! gcc versions later than 11 are not supported! The nvcc flag "
        "'-allow-unsupported-compiler' can be used to override this version check\n"
        "ninja: build stopped: subcommand failed.\n" + TRACE
        + "RuntimeError: Error building extension 'fused_adam'\n",
        "nvcc: host compiler gcc 11.4 is supported\n"),
    "cuda-runtime-library-missing": (
        TRACE + "    import flash_attn_2_cuda as flash_attn_cuda\nImportError: libcudart.so.11.0: "
        "cannot open shared object file: No such file or directory\n",
        "loaded libcudart.so.12 from /venv/lib/python3.10/site-packages/nvidia/cuda_runtime/lib"
        "\n"),
    "python-headers-missing": (
        "/tmp/tmpn8c04nql/main.c:4:10: fatal error: Python.h: No such file or directory\n"
        "    4 | #include <Python.h>\ncompilation terminated.\n" + TRACE
        + "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpn8c04nql/main.c']' returned "
        "non-zero exit status 1.\n",
        "checking for Python.h... yes\n"),
    "model-not-wrapped-module": (
        TRACE + "    net_g.module.load_state_dict(net_g_state)\n  File \"/usr/lib/python3.10/"
        "site-packages/torch/nn/modules/module.py\", line 1695, in __getattr__\n"
        "AttributeError: 'SynthesizerTrnMs256NSFSid' object has no attribute 'module'\n",
        "wrapped SynthesizerTrnMs256NSFSid in DistributedDataParallel; saving model.module\n"),
    "vits-bucket-sampler-empty-bucket": (
        TRACE + "  File \"/root/vits/data_utils.py\", line 372, in __iter__\n"
        "    ids_bucket = ids_bucket + ids_bucket * (rem // len_bucket) + ids_bucket[:(rem % "
        "len_bucket)]\nZeroDivisionError: integer division or modulo by zero\n",
        "DistributedBucketSampler: 5 buckets, rem // len_bucket = 3\n"),
    "fairseq-python-311-dataclass": (
        TRACE + "  File \"/usr/lib/python3.11/dataclasses.py\", line 815, in _get_field\n"
        "ValueError: mutable default <class 'fairseq.dataclass.configs.CommonConfig'> for field "
        "common is not allowed: use default_factory\n",
        "fairseq 0.12.2 imported; common config uses default_factory\n"),
    "stft-return-complex-required": (
        TRACE + "    spec = torch.stft(y, n_fft, hop_length=hop, window=win, center=False)\n"
        "RuntimeError: stft requires the return_complex parameter be given for real inputs, "
        "and will further require that return_complex=True in a future PyTorch release.\n",
        "stft: return_complex=True, n_fft=1024\n"),
    "librosa-keyword-only-arguments": (
        TRACE + "    return librosa.filters.mel(hp.sample_rate, hp.n_fft, n_mels=hp.num_mels)\n"
        "TypeError: mel() takes 0 positional arguments but 2 positional arguments (and 3 "
        "keyword-only arguments) were given\n",
        "librosa 0.10.1: mel(sr=22050, n_fft=1024, n_mels=80)\n"),
    "numba-nvvm-missing": (
        TRACE + "  File \"/opt/conda/lib/python3.8/site-packages/numba/cuda/cudadrv/nvvm.py\", "
        "line 139, in __new__\n    inst.driver = open_cudalib('nvvm')\n"
        "numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install "
        "cudatoolkit`:\nlibnvvm.so: cannot open shared object file: No such file or directory\n",
        "numba: found libNVVM at /usr/local/cuda/nvvm/lib64/libnvvm.so\n"),
    "numba-numpy-too-new": (
        TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/numba/__init__.py\", line 42, "
        "in _ensure_critical_deps\nImportError: Numba needs NumPy 1.24 or less\n",
        "numba 0.59.1 with NumPy 1.26.4\n"),
    "libsndfile-missing": (
        TRACE + "  File \"/opt/conda/lib/python3.8/site-packages/soundfile.py\", line 142, in "
        "<module>\n    raise OSError('sndfile library not found')\n"
        "OSError: sndfile library not found\n",
        "soundfile 0.12.1 (libsndfile-1.2.2)\n"),
    "ffmpeg-binary-missing": (
        TRACE + "  File \"/usr/local/lib/python3.9/site-packages/whisper/audio.py\", line 58, in "
        "load_audio\n    out = run(cmd, capture_output=True, check=True).stdout\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg'\n",
        # pydub/utils.py's warning at import; the run goes on
        "/venv/lib/python3.10/site-packages/pydub/utils.py:170: RuntimeWarning: Couldn't find "
        "ffmpeg or avconv - defaulting to ffmpeg, but may not work\n  warn(\"Couldn't find "
        "ffmpeg or avconv - defaulting to ffmpeg, but may not work\", RuntimeWarning)\n"
        "Epoch 1: 100%|##########| 500/500 [01:10<00:00, loss=0.41]\n"),
    "torchaudio-no-audio-backend": (
        TRACE + "  File \"/opt/conda/lib/python3.12/site-packages/torchaudio/_backend/utils.py\", "
        "line 116, in dispatcher\nRuntimeError: Couldn't find appropriate backend to handle uri "
        "assets/example.mp3 and format None.\n",
        "torchaudio backends: ['ffmpeg', 'soundfile']\n"),
    "torchcodec-not-installed": (
        TRACE + "  File \"/usr/local/lib/python3.12/dist-packages/datasets/features/audio.py\", "
        "line 172, in decode_example\nImportError: To support decoding audio data, please "
        "install 'torchcodec'.\n",
        "torchcodec 0.7.0 loaded (FFmpeg 6)\n"),
    "vits-monotonic-align-not-built": (
        TRACE + "  File \"/work/vits/monotonic_align/__init__.py\", line 3, in <module>\n"
        "    from .monotonic_align.core import maximum_path_c\n"
        "ModuleNotFoundError: No module named 'monotonic_align.monotonic_align.core'\n",
        "built monotonic_align/monotonic_align/core.cpython-310-x86_64-linux-gnu.so\n"),
    "fairseq-cython-not-built": (
        TRACE + "  File \"/home/user/fairseq/fairseq/data/data_utils.py\", line 313, in "
        "batch_by_size\nValueError: Please build (or rebuild) Cython components with: `pip "
        "install --editable .` or `python setup.py build_ext --inplace`.\n",
        "building 'fairseq.data.data_utils_fast' extension\n"),
    "espnet-warpctc-missing": (
        TRACE + "  File \"/work/espnet/espnet/nets/pytorch_backend/ctc.py\", line 31, in "
        "__init__\n    import warpctc_pytorch as warp_ctc\n"
        "ModuleNotFoundError: No module named 'warpctc_pytorch'\n",
        "ctc_type: warpctc (warpctc_pytorch 0.2.1 loaded)\n"),
    "speechbrain-pretrained-renamed": (
        TRACE + "    from speechbrain.pretrained import EncoderClassifier\n"
        "ModuleNotFoundError: No module named 'speechbrain.pretrained'\n",
        "/venv/lib/python3.10/site-packages/speechbrain/utils/importutils.py:62: UserWarning: "
        "Module 'speechbrain.pretrained' was deprecated, redirecting to 'speechbrain.inference'. "
        "Please update your script. This is a change from SpeechBrain 1.0. See: "
        "https://github.com/speechbrain/speechbrain/releases/tag/v1.0.0\n  warnings.warn(\n"),
    "fairseq-invalid-size-valid-test": (
        TRACE + "  File \"/work/fairseq/fairseq/data/data_utils.py\", line 219, in "
        "_batch_generator\nException: Size of sample #14194 is invalid, max_positions=(1022, "
        "1022), skip this example with --skip-invalid-size-inputs-valid-test\n",
        "skip_invalid_size_inputs_valid_test: true; 12 samples skipped\n"),
    "fairseq-max-tokens-too-small": (
        TRACE + "  File \"fairseq/data/data_utils_fast.pyx\", line 30, in "
        "fairseq.data.data_utils_fast.batch_by_size_vec\nAssertionError: sentence at index "
        "16482046 of size 201 exceeds max_tokens limit of 200!\n",
        "max_tokens: 4096, max_positions: 1024\n"),
    "whisper-mel-bins-mismatch": (
        TRACE + "    return F.conv1d(input, weight, bias, self.stride,\nRuntimeError: Given "
        "groups=1, weight of size [1280, 128, 3], expected input[16, 80, 3000] to have 128 "
        "channels, but got 80 channels instead\n",
        "whisper large-v3: n_mels=128, input [16, 128, 3000]\n"),
    "whisper-input-not-padded": (
        TRACE + "  File \"/usr/local/lib/python3.10/site-packages/transformers/models/whisper/"
        "modeling_whisper.py\", line 1164, in forward\nValueError: Whisper expects the mel "
        "input features to be of length 3000, but found 20000. Make sure to pad the input mel "
        "features to 3000.\n",
        "input features padded to length 3000\n"),
    "ctc-targets-shorter-than-lengths": (
        TRACE + "    loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths)\n"
        "RuntimeError: Expected tensor to have size at least 209 at dimension 1, but got size "
        "201 for argument #2 'targets' (while checking arguments for ctc_loss_gpu)\n",
        "ctc_loss: targets (8, 209), max target length 209\n"),
    "ctc-labels-beyond-vocab": (
        TRACE + "    raise ValueError(f\"Label values must be <= vocab_size: "
        "{self.config.vocab_size}\")\nValueError: Label values must be <= vocab_size: 29\n",
        "vocab_size: 32, max label value 31\n"),
    "fairseq-gradients-inconsistent": (
        "grad_norm across the workers:\nrank   0 = 43.87894113\nrank   1 = 36.76721862\n"
        + TRACE + "  File \"/work/fairseq/fairseq/trainer.py\", line 1420, in _check_grad_norms\n"
        "FloatingPointError: Fatal error: gradients are inconsistent between workers. Try "
        "--ddp-backend=legacy_ddp. Or are you mixing up different generation of GPUs in "
        "training?\n",
        "grad_norm across the workers: consistent (4 ranks)\n"),
    "torchcodec-library-unloadable": (
        TRACE + "  File \"/usr/local/lib/python3.12/dist-packages/torchcodec/_core/ops.py\", "
        "line 69, in load_torchcodec_shared_libraries\nRuntimeError: Could not load "
        "libtorchcodec. Likely causes:\n          1. FFmpeg is not properly installed in your "
        "environment.\n[start of libtorchcodec loading traceback]\nFFmpeg version 7: "
        "libavutil.so.59: cannot open shared object file: No such file or directory\n"
        "[end of libtorchcodec loading traceback].\n",
        "Loaded libtorchcodec_core7.so (FFmpeg 7)\n"),
    "windows-worker-ntstatus-exit": (
        TRACE + "  File \"C:\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\multiprocessing\\\\spawn.py\", "
        "line 149, in join\n    raise ProcessExitedException(\n"
        "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with exit "
        "code 3221225620\n",
        "process 0 exited with code 0 (3221225620 bytes written)\n"),
    "libcuda-not-linkable": (
        "/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld "
        "returned 1 exit status\n" + TRACE + "torch._dynamo.exc.BackendCompilerFailed: "
        "backend='inductor' raised:\nCalledProcessError: Command '['/usr/bin/gcc', "
        "'/tmp/tmpa/main.c', '-lcuda']' returned non-zero exit status 1.\n",
        "found libcuda.so.1 in /usr/lib/x86_64-linux-gnu (linked with -lcuda_stub)\n"),
    "triton-missing": (
        TRACE + "    loss = compiled_model(x).sum()\ntorch._inductor.exc.InductorError: "
        "TritonMissing: Cannot find a working triton installation. Either the package is not "
        "installed or it is too old.\n",
        "triton 3.1.0: a working installation\n"),
    "compile-unsupported-python": (
        TRACE + "    model = torch.compile(model)\nRuntimeError: Python 3.12+ not yet supported "
        "for torch.compile\n",
        "torch.compile is supported on Python 3.11 with this torch\n"),
    "triton-out-of-resources": (
        TRACE + "    o = attention(q, k, v)\ntriton.runtime.errors.OutOfResources: out of "
        "resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes "
        "or `num_stages` may help.\n",
        "autotune: config BLOCK_M=128 skipped (needs 98304 bytes of shared memory)\n"),
    "bitsandbytes-without-cuda": (
        "UserWarning: The installed version of bitsandbytes was compiled without GPU support.\n"
        + TRACE + "    optimizer.step()\nAttributeError: 'NoneType' object has no attribute "
        "'cadam32bit_grad_fp32'\n",
        "bitsandbytes: loaded libbitsandbytes_cuda121.so for CUDA 12.1\n"),
    "xformers-torch-mismatch": (
        TRACE + "    out = xops.memory_efficient_attention(q, k, v)\nNotImplementedError: No "
        "operator found for `memory_efficient_attention_forward` with inputs:\n"
        "     query       : shape=(1, 4096, 8, 40) (torch.float16)\n`cutlassF` is not supported "
        "because:\n    xFormers wasn't build with CUDA support\n",
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.3.0+cu121 with CUDA 1201 (you have 2.1.0+cu121)\n"),
    "torch-six-removed": (
        TRACE + "    import deepspeed\n  File \"/venv/lib/python3.10/site-packages/deepspeed/"
        "runtime/utils.py\", line 19, in <module>\n    from torch._six import inf\n"
        "ModuleNotFoundError: No module named 'torch._six'\n",
        "torch._six shim not needed: deepspeed 0.14.4 on torch 2.4.1\n"),
    # Ray on a Slurm node that counted the machine's CPUs; a worker that registered
    "ray-worker-register-failed": (
        "2023-09-29 10:59:14,276\tINFO worker.py:1633 -- Connected to Ray cluster.\n"
        "[2023-09-29 11:00:15,624 E 2740790 2740790] core_worker.cc:203: Failed to register "
        "worker 01000000ffffffffffffffffffffffffffffffffffffffffffffffff to Raylet. IOError: "
        "[RayletClient] Unable to register worker with raylet. No such file or directory\n"
        "srun: error: node12: task 0: Exited with exit code 1\n",
        "[2023-09-29 11:00:15,624 I 2740790 2740790] core_worker.cc:203: Registered worker "
        "01000000ffff with raylet at 10.0.0.2 after 1 try\n"),
    # a project's datasets.py imported in the library's place (Python 3.8 to 3.13's words)
    "local-module-shadows-package": (
        TRACE + "    from datasets import load_dataset\nImportError: cannot import name "
        "'load_dataset' from 'datasets' (/home/me/proj/datasets.py)\n",
        "datasets 2.19.0 from /opt/conda/lib/python3.11/site-packages/datasets/__init__.py; "
        "writing the split to /home/me/proj/datasets.py\n"),
    "library-version-skew": (
        TRACE + "    from accelerate import Accelerator\n  File \"/venv/lib/python3.10/site-"
        "packages/accelerate/accelerator.py\", line 34, in <module>\n    from huggingface_hub "
        "import split_torch_state_dict_into_shards\nImportError: cannot import name "
        "'split_torch_state_dict_into_shards' from 'huggingface_hub' (/venv/lib/python3.10/"
        "site-packages/huggingface_hub/__init__.py)\n",
        "huggingface_hub 0.24.0: split_torch_state_dict_into_shards imported\n"),
    "transformers-needs-accelerate": (
        TRACE + "    args = TrainingArguments(output_dir='out')\nImportError: Using the `Trainer` "
        "with `PyTorch` requires `accelerate>=0.26.0`: Please run `pip install "
        "transformers[torch]` or `pip install 'accelerate>=0.26.0'`\n",
        "accelerate 0.34.2 found: the Trainer can use it\n"),
    "accelerate-too-new-for-transformers": (
        TRACE + "    trainer = Trainer(model=model, args=args)\nTypeError: Accelerator.__init__() "
        "got an unexpected keyword argument 'dispatch_batches'\n",
        "DataLoaderConfiguration(dispatch_batches=None, split_batches=False)\n"),
    "trainer-argument-renamed": (
        TRACE + "    args = TrainingArguments(output_dir='out', evaluation_strategy='steps')\n"
        "TypeError: TrainingArguments.__init__() got an unexpected keyword argument "
        "'evaluation_strategy'\n",
        "FutureWarning: `evaluation_strategy` is deprecated and will be removed in version 4.46 "
        "of Transformers. Use `eval_strategy` instead\n"),
    "model-type-unknown": (
        TRACE + "    config = AutoConfig.from_pretrained(path)\nValueError: The checkpoint you are "
        "trying to load has model type `qwen2` but Transformers does not recognize this "
        "architecture. This could be because of an issue with the checkpoint, or because your "
        "version of Transformers is out of date.\n",
        "Transformers recognizes model type `qwen2` (Qwen2ForCausalLM)\n"),
    "webdataset-nodesplitter": (
        TRACE + "    for batch in loader:\nValueError: you need to add an explicit nodesplitter "
        "to your input pipeline for multi-node training\n",
        "webdataset: nodesplitter=split_by_node, 64 shards over 8 ranks\n"),
    "datasets-fsspec-mismatch": (
        TRACE + "    ds = load_dataset('csv', data_files='train.csv')\nNotImplementedError: "
        "Loading a dataset cached in a LocalFileSystem is not supported.\n",
        "Found cached dataset csv (file:///root/.cache/huggingface/datasets/csv/default)\n"),
    "windows-paging-file": (
        TRACE + "    import torch\nOSError: [WinError 1455] The paging file is too small for "
        "this operation to complete. Error loading \"C:\\envs\\t\\lib\\site-packages\\torch"
        "\\lib\\cudnn_cnn_infer64_8.dll\" or one of its dependencies.\n",
        "paging file: 32768 MB (WinError 0: ok)\n"),
    "pin-memory-thread-died": (
        TRACE + "    for x, y in loader:\nRuntimeError: Pin memory thread exited unexpectedly\n",
        "pin memory thread started (pin_memory=True, 4 workers)\n"),
    "nccl-comm-id-subnet": (
        "node-1:812:812 [0] misc/socket.cc:237 NCCL WARN Net : No interface found in the same "
        "subnet as remote address 192.168.0.91<27030>\n" + TRACE
        + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
        "internal error - please report this issue to the NCCL developers, NCCL version 2.21.5\n",
        "node-1:812:812 [0] NCCL INFO Bootstrap : Using eth0:192.168.0.92<0>\n"),
    "rendezvous-closed": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/torch/distributed/elastic/"
        "rendezvous/dynamic_rendezvous.py\", line 635, in run\n    raise "
        "RendezvousClosedError()\ntorch.distributed.elastic.rendezvous.api."
        "RendezvousClosedError\n",
        "[default] Rendezvous complete for workers. Result: restart_count=1 master_addr=node-0\n"),
    "zero3-empty-params": (
        TRACE + "    model.load_state_dict(torch.load('pytorch_model.bin'))\nRuntimeError: "
        "Error(s) in loading state_dict for OPTForCausalLM:\n\tsize mismatch for model.decoder."
        "layers.25.fc1.weight: copying a param with shape torch.Size([0]) from checkpoint, the "
        "shape in current model is torch.Size([10240, 2560]).\n",
        "zero3: gathered 1.3B parameters, shape torch.Size([10240, 2560])\n"),
    "optimizer-state-mismatch": (
        TRACE + "    optimizer.load_state_dict(ckpt['optimizer'])\nValueError: loaded state dict "
        "contains a parameter group that doesn't match the size of optimizer's group\n",
        "resumed optimizer state: 2 parameter groups, 161 parameters\n"),
    "zero-checkpoint-shards-missing": (
        TRACE + "    engine.load_checkpoint(args.resume)\nFileNotFoundError: [Errno 2] No such "
        "file or directory: 'output/checkpoint-500/global_step500/zero_pp_rank_4_mp_rank_00_"
        "optim_states.pt'\n",
        "[WARNING] [engine.py:2944:_get_all_zero_checkpoints] Client provided zero checkpoint "
        "load paths: ['a'] does not exist; loading the module only as asked\n"),
    "sharded-checkpoint-not-shared": (
        TRACE + "    dcp.load(state_dict, checkpoint_id=path)\nFileNotFoundError: [Errno 2] No "
        "such file or directory: '/scratch/ckpt/step_1000/.metadata'\n",
        "saved /shared/ckpt/step_1000/.metadata and 16 shards\n"),
    "safetensors-not-a-file": (
        TRACE + "    state = load_file(path)\nsafetensors_rust.SafetensorError: Error while "
        "deserializing header: HeaderTooLarge\n",
        "safetensors: header of model.safetensors read (1,204 tensors)\n"),
    "safetensors-shared-tensors": (
        TRACE + "    trainer.save_model()\nRuntimeError: \n            Some tensors share memory, "
        "this will lead to duplicate memory on disk and potential differences when loading "
        "them again: [{'lm_head.weight', 'model.embed_tokens.weight'}].\n",
        "Removed shared tensor {'lm_head.weight'} while saving. This should be OK, but check by "
        "verifying that you don't receive any warning while reloading\n"),
    "fsdp-params-freed": (
        TRACE + "    out = model.generate(**batch)\nRuntimeError: The tensor has a non-zero "
        "number of elements, but its data is not allocated yet. Caffe2 uses a lazy allocation, "
        "so you will need to call mutable_data() or raw_mutable_data() to actually allocate "
        "memory.\n",
        "FSDP: summon_full_params around generate(): data allocated\n"),
    "half-overflow": (
        TRACE + "    scores = scores.masked_fill(mask, -1e9)\nRuntimeError: value cannot be "
        "converted to type at::Half without overflow\n",
        "mask fill value -65504.0 fits in float16\n"),
    "deepspeed-config-not-found": (
        TRACE + "    args = TrainingArguments(output_dir='out', deepspeed='ds_config.json')\n"
        "ValueError: Expected a string path to an existing deepspeed config, or a dictionary, or "
        "a base64 encoded string. Received: ds_config.json\n",
        "Using DeepSpeed config file /work/ds_config.json\n"),
    "zero2-gradient-twice": (
        TRACE + "    model.backward(loss)\nAssertionError: The parameter 447 has already been "
        "reduced.             Gradient computed twice for this partition.             Multiple "
        "gradient reduction is currently not supported\n",
        "ZeRO stage 2: 447 parameters reduced once each this step\n"),
    "deepspeed-pipeline-zero-stage": (
        TRACE + "    engine, _, _, _ = deepspeed.initialize(model=pipe_model, config=cfg)\n"
        "AssertionError: ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism\n",
        "pipeline parallelism: 4 stages with ZeRO stage 1\n"),
    "deepspeed-config-twice": (
        TRACE + "    engine, *_ = deepspeed.initialize(args=args, model=model, config=cfg)\n"
        "AssertionError: Not sure how to proceed, we were given deepspeed configs in the "
        "deepspeed arguments and deepspeed.initialize() function call\n",
        "deepspeed.initialize: config taken from the deepspeed arguments\n"),
    "deepspeed-launcher-no-slot": (
        "[INFO] [runner.py:463:main] Detected CUDA_VISIBLE_DEVICES=1: setting "
        "--include=localhost:1\n" + TRACE + "    resource_pool = parse_inclusion_exclusion("
        "resource_pool, args.include, args.exclude)\nValueError: No slot '1' specified on "
        "host 'localhost'\n",
        "[INFO] [runner.py:463:main] Detected CUDA_VISIBLE_DEVICES=0,1: setting "
        "--include=localhost:0,1\n"),
    "nproc-not-a-number": (
        TRACE + "    nproc_per_node = determine_local_world_size(args.nproc_per_node)\n"
        "ValueError: Unsupported nproc_per_node value: --work-dir\n",
        "FutureWarning: The module torch.distributed.launch is deprecated and will be removed in "
        "future. Use torchrun.\n"),
    "deepspeed-auto-unfilled": (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for "
        "DeepSpeedZeroConfig\nstage3_prefetch_bucket_size\n  Input should be a valid integer, "
        "got a number with a fractional part [type=int_from_float, input_value=15099494.4, "
        "input_type=float]\n",
        "  \"stage3_prefetch_bucket_size\": 15099494,\n  \"train_batch_size\": 64,\n"),
    "accelerate-deepspeed-config-conflict": (
        TRACE + "    accelerator = Accelerator()\nValueError: When using `deepspeed_config_file`, "
        "the following accelerate config variables will be ignored: ['gradient_accumulation_"
        "steps', 'zero_stage', 'mixed_precision'].\n",
        "The following values were not passed to `accelerate launch` and had defaults used "
        "instead:\n"),
    "lightning-2-removed-arguments": (
        TRACE + "    trainer = pl.Trainer(gpus=4, max_epochs=10)\nTypeError: Trainer.__init__() "
        "got an unexpected keyword argument 'gpus'\n",
        "GPU available: True (cuda), used: True\n"),
    "zero-inference-needs-stage3": (
        TRACE + "    metrics = trainer.evaluate()\nValueError: ZeRO inference only makes sense "
        "with ZeRO Stage 3 - please adjust your config\n",
        "ZeRO stage 3 inference: parameters partitioned over 8 ranks\n"),
    "nccl-invalid-usage": (
        TRACE + "    model = DDP(model, device_ids=[local_rank])\nRuntimeError: NCCL error in: "
        "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:957, invalid usage, NCCL version "
        "21.0.3\nncclInvalidUsage: This usually reflects invalid usage of NCCL library (such as "
        "too many async ops, too many collectives at once, mixing streams in a group, etc).\n",
        "NCCL INFO comm 0x55d0 rank 3 nranks 16 cudaDev 3 nvmlDev 3 - Init COMPLETE\n"),
    "slurm-gres-invalid": (
        "srun: error: Unable to allocate resources: Invalid generic resource (gres) "
        "specification\n",
        "srun: job 38602701 has been allocated resources\n"),
    "slurm-memory-options": (
        "srun: fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually "
        "exclusive.\n",
        "srun: job 38602702 queued and waiting for resources (--mem-per-gpu=40G)\n"),
    "init-method-without-rank": (
        TRACE + "    dist.init_process_group('nccl', init_method=f'tcp://{addr}:{port}')\n"
        "ValueError: Error initializing torch.distributed using tcp:// rendezvous: rank "
        "parameter missing\n",
        "init_process_group: tcp:// rendezvous with rank 0 of world size 2\n"),
    "collective-size-mismatch": (
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n  what():  "
        "[enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] "
        "op.preamble.length <= op.nbytes. 6 vs 4. Received data size doesn't match expected "
        "size. Is there a distributed collective mismatch in your code?\n",
        "all_gather: 2 ranks, 4 bytes each (op.nbytes agreed)\n"),
    "collective-dtype-unsupported": (
        TRACE + "    dist.all_reduce(spectrum)\nRuntimeError: Input tensor data type is not "
        "supported for NCCL process group: ComplexFloat\n",
        "all_reduce: dtype ComplexFloat viewed as real for NCCL\n"),
    "collective-dtypes-differ": (
        TRACE + "    dist.all_gather(outs, t)\nValueError: Invalid usage of tensors with different "
        "dtypesFound torch.float64 and  torch.float32\n",
        "all_gather: outputs allocated with torch.empty_like(input)\n"),
    "collective-not-a-tensor": (
        TRACE + "    dist.all_reduce(loss.item())\nTypeError: Invalid function argument. Expected "
        "parameter `tensor` of type torch.Tensor\n             but got <class 'float'> instead.\n",
        "metrics: all_reduce of torch.Tensor loss\n"),
    "collective-list-on-non-root": (
        TRACE + "    dist.scatter(t, scatter_list=chunks, src=0)\nValueError: Argument "
        "``scatter_list`` must NOT be specified on non-source ranks.\n",
        "scatter: scatter_list given on rank 0 (source) only\n"),
    "backend-lacks-collective": (
        TRACE + "    dist.all_to_all(outs, ins)\nRuntimeError: ProcessGroup gloo does not support "
        "alltoall\n",
        "process group: backend cpu:gloo,cuda:nccl\n"),
    "ddp-device-ids-several": (
        TRACE + "    model = DDP(model, device_ids=[0, 1])\nValueError: device_ids can only be None "
        "or contain a single element.\n",
        "DDP: device_ids=[3] for local rank 3\n"),
    "dtensor-no-sharding-rule": (
        TRACE + "    out = attn(x)\nNotImplementedError: Operator aten.masked_fill_.Scalar does "
        "not have a sharding strategy registered.\n",
        "sharding strategy registered for aten.mm.default\n"),
    "dtensor-mixed-with-tensor": (
        TRACE + "    y = x @ w\nRuntimeError: aten.mm.default got mixed torch.Tensor and DTensor, "
        "need to convert all torch.Tensor to DTensor before calling distributed operators!\n",
        "DTensor: converted torch.Tensor mask with DTensor.from_local\n"),
    "collective-output-list": (
        TRACE + "    dist.all_gather(out, t)\nRuntimeError: ProcessGroupGloo::allgather: invalid "
        "output tensor list at index 0 (expected length 2, got 3)\n",
        "all_gather: output list of world_size (2) tensors\n"),
    "vllm-startup-memory-taken": (
        TRACE + "    llm = LLM(model=path)\nValueError: Free memory on device (20.51/79.19 GiB) on "
        "startup is less than desired GPU memory utilization (0.9, 71.27 GiB). Decrease GPU "
        "memory utilization or reduce GPU memory used by other processes.\n",
        "INFO gpu_worker.py:220] Available KV cache memory: 52.1 GiB (free memory on device "
        "ok)\n"),
    "serving-prefill-memory": (
        "Error: Warmup(Generation(\"Not enough memory to handle 4096 prefill tokens. You need "
        "to decrease `--max-batch-prefill-tokens`\"))\n",
        "INFO warmup: Setting max batch total tokens to 245632 (enough memory for 4096 prefill "
        "tokens)\n"),
    "grpo-generations-batch": (
        TRACE + "    args = GRPOConfig(num_generations=8)\nValueError: The global train batch "
        "size (7 x 1) must be evenly divisible by the number of generations per prompt (8). "
        "Given the current train batch size, the valid values for the number of generations "
        "are: [7].\n",
        "GRPO: 8 generations per prompt, global batch 64\n"),
    "trl-vllm-server-unreachable": (
        "INFO - trl.extras.vllm_client - Server is not up yet. Retrying in 2.0 seconds...\n"
        + TRACE + "ConnectionError: The vLLM server can't be reached at 0.0.0.0:8000 after 240.0 "
        "seconds. Make sure the server is running by running `trl vllm-serve`.\n",
        "INFO - trl.extras.vllm_client - Server is not up yet. Retrying in 2.0 seconds...\n"),
    "megatron-device-max-connections": (
        TRACE + "    output = linear_with_grad_accumulation_and_async_allreduce(*args)\n"
        "RuntimeError: Using sequence parallelism requires setting the environment variable "
        "CUDA_DEVICE_MAX_CONNECTIONS to 1\n",
        "environment: CUDA_DEVICE_MAX_CONNECTIONS=1\n"),
    "fp8-gpu-too-old": (
        TRACE + "    with te.fp8_autocast(enabled=True):\nAssertionError: Device compute "
        "capability 8.9 or higher required for FP8 execution.\n",
        "Transformer Engine: device compute capability 9.0, FP8 enabled\n"),
    "vllm-pipeline-unsupported": (
        TRACE + "    llm = LLM(model=path, pipeline_parallel_size=2)\nNotImplementedError: "
        "Pipeline parallelism is not supported for this model. Supported models implement the "
        "`SupportsPP` interface.\n",
        "INFO: pipeline parallel size 2 with the ray executor\n"),
    "expert-parallel-size-indivisible": (
        TRACE + "    engine = LLMEngine.from_engine_args(args)\nAssertionError: "
        "n_physical_experts=256 must be divisible by ep_size=3. Adjust num_redundant_experts.\n",
        "MoE: 256 experts over expert parallel size 8\n"),
    # diffusion training (diffusers, kohya sd-scripts and its GUI, SimpleTuner, ColossalAI)
    "diffusers-module-moved": (
        TRACE + "    from diffusers.models.unet_2d_condition import UNet2DConditionOutput\n"
        "ModuleNotFoundError: No module named 'diffusers.models.unet_2d_condition'\n",
        "INFO: loaded diffusers.models.unets.unet_2d_condition.UNet2DConditionModel\n"),
    "colossalai-kernels-not-built": (
        "  File \"/opt/conda/lib/python3.10/site-packages/colossalai/kernel/extensions/"
        "cpp_extension.py\", line 61, in import_op\n"
        "    return importlib.import_module(self.prebuilt_import_path)\n"
        "ModuleNotFoundError: No module named 'colossalai._C.fused_optim_cuda'\n\n"
        "During handling of the above exception, another exception occurred:\n\n" + TRACE
        + "    optimizer = HybridAdam(model.parameters(), lr=1e-4)\nFileNotFoundError: [Errno 2] "
        "No such file or directory: '/opt/conda/lib/python3.10/site-packages/colossalai/kernel/"
        "extensions/pybind/optimizer/optimizer.cpp'\n",
        "INFO colossalai - loaded prebuilt kernel colossalai._C.fused_optim_cuda\n"),
    "diffusers-peft-backend-missing": (
        TRACE + "    pipe.load_lora_weights(args.lora_path)\n  File \"/venv/lib/python3.10/"
        "site-packages/diffusers/loaders/lora_pipeline.py\", line 98, in load_lora_weights\n"
        "    raise ValueError(\"PEFT backend is required for this method.\")\n"
        "ValueError: PEFT backend is required for this method.\n",
        "INFO: using the PEFT backend for LoRA (peft 0.13.2)\n"),
    "xformers-not-importable": (
        TRACE + "    raise ValueError(\"xformers is not available. Make sure it is installed "
        "correctly\")\nValueError: xformers is not available. Make sure it is installed "
        "correctly\n",
        "xformers is available: enabling memory efficient attention\n"),
    "diffusers-deprecation-deadline": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/diffusers/utils/"
        "deprecation_utils.py\", line 18, in deprecate\n    raise ValueError(\n"
        "ValueError: The deprecation tuple ('init_image', '0.12.0', 'Please use `image` "
        "instead.') should be removed since diffusers' version 0.16.0.dev0 is >= 0.12.0\n",
        "FutureWarning: `init_image` is deprecated and will be removed in version 0.12.0. "
        "Please use `image` instead.\n"),
    "kohya-no-training-images": (
        "prepare dataset\nmean ar error (without repeats): nan\nNo data found. Please verify "
        "arguments (train_data_dir must be the parent of folders with images) / "
        "画像がありません。引数指定を確認してください\n",
        "found directory /data/train/10_mychar contains 24 image files\n"),
    "kohya-gui-folder-name": (
        "Folder 150_mychar: 1500 steps\nTraceback (most recent call last):\n"
        "  File \"H:\\Kohya_ss\\lora_gui.py\", line 407, in train_model\n"
        "    repeats = int(folder.split('_')[0])\n"
        "ValueError: invalid literal for int() with base 10: 'log'\n",
        "Folder 150_mychar: 1500 steps\n"),
    "kohya-text-encoder-cached-and-trained": (
        TRACE + "    trainer.assert_extra_args(args, train_dataset_group)\nAssertionError: network "
        "for Text Encoder cannot be trained with caching Text Encoder outputs / "
        "Text Encoderの出力をキャッシュしながらText Encoderのネットワークを学習することはできません\n",
        "caching Text Encoder outputs; network_train_unet_only: True\n"),
    "kohya-text-encoder-cache-caption-augment": (
        TRACE + "    train_dataset_group.is_text_encoder_output_cacheable()\nAssertionError: when "
        "caching Text Encoder output, either caption_dropout_rate, shuffle_caption, "
        "token_warmup_step or caption_tag_dropout_rate cannot be used\n",
        "caching Text Encoder outputs (shuffle_caption: False, caption_dropout_rate: 0.0)\n"),
    "kohya-nan-latents": (
        "caching latents.\n" + TRACE + "    cache_batch_latents(vae, True, batch, "
        "subset.flip_aug, subset.random_crop)\nRuntimeError: NaN detected in latents: "
        "/data/train/10_mychar/img_031.png\n",
        "caching latents: 100%|##########| 24/24 [00:09<00:00,  2.51it/s]\n"),
    "bf16-upsample-old-torch": (
        TRACE + "    return F.interpolate(x, scale_factor=2.0, mode=\"nearest\")\nRuntimeError: "
        "\"upsample_nearest2d_out_frame\" not implemented for 'BFloat16'\n",
        "INFO: upsample_nearest2d in BFloat16 (torch 2.3.1)\n"),
    "fp8-compute-op": (
        TRACE + "    return F.linear(input, self.weight, self.bias)\nRuntimeError: \"addmm_cuda\" "
        "not implemented for 'Float8_e4m3fn'\n",
        "INFO: weight dtype Float8_e4m3fn, compute dtype bfloat16 (addmm_cuda in bf16)\n"),
    "linear-input-width-mismatch": (
        TRACE + "    return F.linear(input, self.weight, self.bias)\nRuntimeError: mat1 and mat2 "
        "shapes cannot be multiplied (154x2048 and 768x320)\n",
        "INFO: cross_attention_dim 2048, text embeddings 77x2048\n"),
    "conv-input-channels-mismatch": (
        TRACE + "    return F.conv2d(input, weight, bias, self.stride,\nRuntimeError: Given "
        "groups=1, weight of size [320, 4, 3, 3], expected input[2, 16, 128, 128] to have 4 "
        "channels, but got 16 channels instead\n",
        "INFO: unet in_channels 4, latent channels 4\n"),
    "diffusers-checkpoint-keys-missing": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/diffusers/models/modeling_utils.py"
        "\", line 720, in from_pretrained\n    raise ValueError(\nValueError: Cannot load <class "
        "'diffusers.models.unets.unet_2d_condition.UNet2DConditionModel'> from /data/out/"
        "checkpoint-500/unet because the following keys are missing: \n "
        "down_blocks.0.attentions.0.proj_in.weight. \n",
        "INFO: loaded UNet2DConditionModel from /data/out/checkpoint-500/unet, no keys missing\n"),
    "simpletuner-no-images-discovered": (
        "2024-08-21 21:15:08,041 [ERROR] (__main__) No images were discovered by the bucket "
        "manager in the dataset: pets., traceback: Traceback (most recent call last):\n"
        "  File \"SimpleTuner/train.py\", line 588, in main\n    configure_multi_databackend(\n"
        "Exception: No images were discovered by the bucket manager in the dataset: pets.\n",
        "2024-08-21 21:15:08,041 [INFO] (DataBackendFactory) Discovered 240 images in the "
        "bucket manager for dataset pets\n"),
    # Llama-2-13b in 4 bit (QLoRA), whose config has pretraining_tp=2: its attention slices
    # the packed weight (bitsandbytes #610, LlamaFactory #202); the lookalike is the warning
    # every 4-bit run in fp16 prints, training going on
    "bitsandbytes-4bit-weight-as-float": (
        "07/19/2023 10:02:11 - INFO - llmtuner.tuner.core.loader - Quantizing model to 4 bit.\n"
        + TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/transformers/models/llama/"
        "modeling_llama.py\", line 295, in <listcomp>\n    query_states = [F.linear(hidden_"
        "states, query_slices[i]) for i in range(self.pretraining_tp)]\nRuntimeError: mat1 and "
        "mat2 shapes cannot be multiplied (3264x5120 and 1x2560)\n",
        "/usr/local/lib/python3.10/dist-packages/bitsandbytes/nn/modules.py:224: UserWarning: "
        "Input type into Linear4bit is torch.float16, but bnb_4bit_compute_type=torch.float32 "
        "(default). This will lead to slow inference or training speed.\n"
        "{'loss': 1.4321, 'learning_rate': 1.9e-05, 'epoch': 0.1}\n"),
    "nccl-cuda-graph-capture": (
        "node-0:51:51 [0] NCCL WARN NCCL cannot be captured in a graph if either it wasn't "
        "built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.\n" + TRACE
        + "RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)\n",
        "node-0:51:51 [0] NCCL INFO NCCL_GRAPH_REGISTER set by environment to 1 (captured in a "
        "graph)\n"),
    "vllm-max-model-len": (
        TRACE + "    llm = LLM(model=path, max_model_len=65536)\nValueError: User-specified "
        "max_model_len (65536) is greater than the derived max_model_len "
        "(max_position_embeddings=32768 or model_max_length=None in model's config.json).\n",
        "INFO: max_model_len 32768 derived from max_position_embeddings\n"),
    "opencv-gui-libraries-missing": (
        TRACE + "    import cv2\nImportError: libGL.so.1: cannot open shared object file: No such "
        "file or directory\n",
        "opencv-python-headless 4.10.0: no libGL.so.1 needed\n"),
    "cuda-libraries-mixed": (
        TRACE + "    import torch\nOSError: /usr/local/lib/python3.8/dist-packages/nvidia/cublas/"
        "lib/libcublas.so.11: undefined symbol: cublasLtGetStatusString, version "
        "libcublasLt.so.11\n",
        "cuBLAS: libcublas.so.11 and libcublasLt.so.11 from one release\n"),
    "torch-cuda-wheels-missing": (
        TRACE + "    import torch\nValueError: libcublas.so.*[0-9] not found in the system path "
        "['/code', '/usr/local/lib/python310.zip']\n",
        "found libcublas.so.12 in the system path\n"),
    "cudnn-nvrtc-missing": (
        "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared "
        "object file: No such file or directory\nAborted (core dumped)\n",
        "Loaded library libcudnn_cnn_infer.so.8\n"),
    "numpy-too-old": (
        "RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xe"
        "\n" + TRACE + "    import cv2\nImportError: numpy.core.multiarray failed to import\n",
        "<frozen importlib._bootstrap>:228: RuntimeWarning: numpy.ndarray size changed, may "
        "indicate binary incompatibility. Expected 80 from C header, got 88 from PyObject\n"),
    "illegal-instruction": (
        "Illegal instruction (core dumped)\n",
        "CPU flags: avx avx2 avx512f (no illegal instruction expected)\n"),
    "thread-limit": (
        "OpenBLAS blas_thread_init: pthread_create failed for thread 50 of 64: Resource "
        "temporarily unavailable\nOpenBLAS blas_thread_init: RLIMIT_NPROC 4096 current, 513046 "
        "max\n" + TRACE + "RuntimeError: can't start new thread\n",
        "OpenBLAS: 64 threads started\n"),
    "shared-tmp-permission": (
        TRACE + "    fused = load(name='fused', sources=['fused.cpp'])\nPermissionError: [Errno "
        "13] Permission denied: '/tmp/torch_extensions/fused'\n",
        "Using /tmp/torch_extensions as PyTorch extensions root...\n"),
    "ascii-locale": (
        TRACE + "    cli()\nRuntimeError: Click will abort further execution because Python was "
        "configured to use ASCII as encoding for the environment.\n",
        "locale: LANG=C.UTF-8, Python configured to use UTF-8\n"),
    "thread-creation-blocked": (
        "OpenBLAS blas_thread_init: pthread_create failed for thread 35 of 48: Operation not "
        "permitted\nOpenBLAS blas_thread_init: RLIMIT_NPROC -1 current, -1 max\n" + TRACE
        + "RuntimeError: can't start new thread\n",
        "OpenBLAS: 48 threads created (seccomp profile default)\n"),
    "quantization-gpu-too-old": (
        TRACE + "    llm = LLM(model=path, quantization='awq')\nValueError: The quantization method "
        "awq is not supported for the current GPU. Minimum capability: 75. Current capability: "
        "70.\n",
        "INFO: quantization awq supported on this GPU (capability 80)\n"),
    "no-nvidia-driver-visible": (
        TRACE + "    import torch\nImportError: libcuda.so.1: cannot open shared object file: No "
        "such file or directory\n",
        "found libcuda.so.1 at /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"),
    # accelerators other than NVIDIA's (ROCm, TPU/XLA, Trainium, Gaudi, Ascend, Intel, Apple
    # MPS), each in its library's own words
    "lightning-accelerator-unavailable": (
        TRACE + "    trainer = Trainer(accelerator='tpu', devices=8)\n"
        "lightning.fabric.utilities.exceptions.MisconfigurationException: `XLAAccelerator` can "
        "not run on your system since the accelerator is not available. The following "
        "accelerator(s) is available and can be passed into `accelerator` argument of `Trainer`: "
        "['cpu'].\n",
        "TPU available: False, using: 0 TPU cores\n"),
    "rocm-no-gpu": (
        TRACE + "    torch.cuda.set_device(local_rank)\n  File "
        "\"/opt/venv/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 302, in "
        "_lazy_init\n    torch._C._cuda_init()\nRuntimeError: No HIP GPUs are available\n",
        "HIP runtime version: 6.0.32830\n"),
    "tpu-in-use": (
        "concurrent.futures.process._RemoteTraceback:\n\"\"\"\nTraceback (most recent call "
        "last):\n  File \"/usr/local/lib/python3.10/site-packages/torch_xla/_internal/pjrt.py\", "
        "line 77, in _run_thread_per_device\n    initializer_fn(local_rank, local_world_size)\n"
        "RuntimeError: Bad StatusOr access: ABORTED: The TPU is already in use by process with "
        "pid 176028. Not attempting to load libtpu.so in this process.\n\"\"\"\n",
        "I0000 00:00:1649423660.053391 1924758 f236.cc:165] libtpu.so already in use by another "
        "process probably owned by another user. Run \"$ sudo lsof -w /dev/accel0\" to figure "
        "out which process is using the TPU. Not attempting to load libtpu.so in this process.\n"),
    "neuron-cores-busy": (
        "2021-Aug-27 23:22:12.0323 28078:28078 ERROR   NRT:nrt_allocate_neuron_cores             "
        "  NeuronCore(s) not available - Requested:nc1-nc1 Available:0\n" + TRACE
        + "RuntimeError: Neuron runtime cannot be initialized; cannot determine the number of "
        "available NeuronCores\n",
        "INFO ||NEURON_CC_WRAPPER||: Using a cached neff at "
        "/var/tmp/neuron-compile-cache/neuronxcc-2.13.66.0/MODULE_1234/model.neff. Exiting with "
        "a successfully compiled graph.\n"),
    "neuron-topology-unsupported": (
        "2024-Jun-02 04:05:36.428977   273:478   ERROR   NRT:nrt_load_collectives                "
        "    Unsupported topology. Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple "
        "of 32.  For other configurations, such as multiples of 2, consider using inf2 "
        "instances\n",
        "Compiler status PASS\n"),
    "hpu-busy": (
        TRACE + "    import habana_frameworks.torch.core as htcore\n  File "
        "\"/usr/local/lib/python3.10/dist-packages/habana_frameworks/torch/hpu/__init__.py\", "
        "line 76, in _lazy_init\n    _hpu_C.init()\nRuntimeError: synStatus=26 [Generic failure] "
        "Device acquire failed.\n",
        " PT_HPU_LAZY_MODE = 1\n"),
    "hpu-not-found": (
        TRACE + "    model = model.to('hpu')\nRuntimeError: synStatus=8 [Device not found] "
        "Device acquire failed.\n",
        " PT_HPU_ENABLE_REFINE_DYNAMIC_SHAPES = 0\n"),
    "ascend-hccp-busy": (
        TRACE + "    dist.barrier()\nRuntimeError: [ERROR] HCCL error in: "
        "torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\nEJ0001: 2024-05-20-10:00:01.123.456 "
        "Failed to initialize the HCCP process. Reason: Maybe the last training process is "
        "running.\n        Solution: Wait for 10s after killing the last training process and "
        "try again.\n",
        "[INFO] HCCL: HCCP process initialized on device 0\n"),
    "rocm-gpu-arch-unsupported": (
        "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\nE1122 "
        "10:00:05 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) "
        "local_rank: 0 (pid: 4202) of binary: /usr/bin/python3\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n",
        "node1:1234:1234 [0] NCCL INFO RCCL version 2.18.3+hip6.0 HEAD:2f38e6d\n"),
    "gloo-accelerator-tensor": (
        TRACE + "    model = DDP(model)\n  File "
        "\"/venv/lib/python3.11/site-packages/torch/distributed/utils.py\", line 282, in "
        "_verify_param_shape_across_processes\n    return "
        "dist._verify_params_across_processes(process_group, tensors, logger)\nRuntimeError: "
        "ProcessGroupGloo::allgather: invalid tensor type at index 0 (expected "
        "TensorOptions(dtype=long long, device=cpu, layout=Strided, requires_grad=false "
        "(default), pinned_memory=false (default), memory_format=(nullopt)), got "
        "TensorOptions(dtype=long long, device=mps:0, layout=Strided, requires_grad=false "
        "(default), pinned_memory=false (default), memory_format=(nullopt)))\n",
        "Using backend config: {'cpu': 'gloo', 'mps': 'gloo'}\n"),
    "ascend-hccl-socket-timeout": (
        "[rank1]: RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS "
        "function error: HcclAllreduce, error code is 6\n[rank1]: [ERROR] 2025-03-14-10:20:31 "
        "(PID:1292363, Device:1, RankID:1) ERR00100 PTA call acl api failed\n[rank1]: EI0006: "
        "[PID: 1292363] 2025-03-14-10:20:31.000.123 Getting socket times out. Reason: Remote "
        "Rank did not send the data in time. Please check the reason for the rank being stuck\n",
        "[rank1]: HCCL_CONNECT_TIMEOUT=1200 set; HcclAllreduce ok\n"),
    "xla-hbm-oom": (
        TRACE + "    xm.mark_step()\nRuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: "
        "XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 20.15G of "
        "15.48G hbm. Exceeded hbm capacity by 4.67G.\n",
        "XLA memory: 7.2G of 15.48G hbm used (peak 9.1G)\n"),
    "ipex-torch-mismatch": (
        "ERROR! Intel\u00ae Extension for PyTorch* needs to work with PyTorch 2.1.*, but PyTorch "
        "2.2.0+cpu is found. Please switch to the matching version and run again.\nE1122 "
        "10:00:05 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
        "local_rank: 0 (pid: 4202) of binary: /usr/bin/python3\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n",
        "Intel Extension for PyTorch 2.1 needs to work with PyTorch 2.1.*, but PyTorch 2.2.0 is "
        "found. Please switch to the matching version and run again.\n"),
    "windows-gloo-device": (
        "[W socket.cpp:697] [c10d] The client socket has failed to connect to []:39507 (system "
        "error: 10049 - The requested address is not valid in its context.).\n" + TRACE
        + "    dist.init_process_group('gloo')\nRuntimeError: GlooDeviceFactory::makeUVDevice(): "
        "interface or hostname can't be empty\n",
        "[W socket.cpp:697] [c10d] The client socket has failed to connect to "
        "[DESKTOP-7BNNAUJ]:29500 (system error: 10049 - The requested address is not valid in "
        "its context.).\n"),
    "accelerator-no-default-backend": (
        TRACE + "    dist.init_process_group()\n  File "
        "\"/opt/homebrew/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", "
        "line 265, in __init__\n    raise ValueError(\nValueError: We detected accelerator mps "
        "on your machine. But we don't know which communication backend to use for this "
        "accelerator. Please specify the `backend` argument in the `init_process_group` call.\n",
        "Using backend config: {'cpu': 'gloo', 'mps': 'gloo'}\n"),
    "c10d-backend-not-imported": (
        "/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py:1450: "
        "UserWarning: Device capability of ccl unknown, assuming `cpu` and `cuda`. Please "
        "specify it via the `devices` argument of `register_backend`.\n" + TRACE
        + "    dist.init_process_group(backend='ccl')\nAssertionError: Unknown c10d backend type "
        "CCL\n",
        "UserWarning: Device capability of ccl unknown, assuming `cpu` and `cuda`. Please "
        "specify it via the `devices` argument of `register_backend`.\n"),
    "xla-rendezvous-handler": (
        TRACE + "    dist.init_process_group('xla', init_method='xla://')\n  File "
        "\"/usr/local/lib/python3.10/site-packages/torch/distributed/rendezvous.py\", line 96, "
        "in rendezvous\n    raise RuntimeError(f\"No rendezvous handler for "
        "{result.scheme}://\")\nRuntimeError: No rendezvous handler for xla://\n",
        "WARNING:root:PJRT is now the default runtime. For more information, see "
        "https://github.com/pytorch/xla/blob/master/docs/pjrt.md\n"),
    "oneccl-library-not-on-loader-path": (
        "oneCCL could not be initialized! Could not load any plugin.\n",
        "oneCCL: loaded plugin libccl.so.1 from /opt/venv/lib\n"),
    "oneccl-dri-by-path-missing": (
        TRACE + "RuntimeError: oneCCL: ze_fd_manager.cpp:143 init_device_fds: EXCEPTION: "
        "opendir failed: could not open device directory\n",
        "oneCCL: init_device_fds found 2 devices in /dev/dri/by-path\n"),
    "oneccl-local-coord": (
        "2024:01:11-10:22:07:(2012) |CCL_WARN| could not get local_idx/count from environment "
        "variables, trying to get them from ATL\n2024:01:11-10:22:07:(2012) |CCL_ERROR| "
        "global.cpp:150 getenv_local_coord: condition global_data::env().ze_ipc_exchange == "
        "ccl::ze::ipc_exchange_mode::sockets failed\nto get local_idx/count from ATL, set "
        "CCL_ZE_IPC_EXCHANGE=sockets explicitly\n" + TRACE
        + "RuntimeError: oneCCL: global.cpp:150 getenv_local_coord: EXCEPTION: to get "
        "local_idx/count from ATL, set CCL_ZE_IPC_EXCHANGE=sockets explicitly\n",
        "2024:01:11-10:22:07:(2012) |CCL_WARN| did not find MPI-launcher specific variables, "
        "switch to ATL/OFI, to force enable ATL/MPI set CCL_ATL_TRANSPORT=mpi\n"),
    "mps-collective-unsupported": (
        TRACE + "    dist.all_reduce(loss)\nNotImplementedError: The operator 'c10d::allreduce_' "
        "is not currently implemented for the MPS device. If you want this op to be added in "
        "priority during the prototype phase of this feature, please comment on "
        "https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the "
        "environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for "
        "this op. WARNING: this will be slower than running natively on MPS.\n",
        "dist.all_reduce on cpu tensors (MPS model, CPU collectives)\n"),
    "mps-op-not-implemented": (
        TRACE + "    out = model(x)\nNotImplementedError: The operator 'aten::_index_put_impl_' "
        "is not currently implemented for the MPS device. If you want this op to be added in "
        "priority during the prototype phase of this feature, please comment on "
        "https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the "
        "environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for "
        "this op. WARNING: this will be slower than running natively on MPS.\n",
        "UserWarning: The operator 'aten::isin.Tensor_Tensor_out' is not currently supported on "
        "the MPS backend and will fall back to run on the CPU. This may have performance "
        "implications.\n"),
    "lightning-ddp-on-mps": (
        TRACE + "    trainer = L.Trainer(strategy='ddp', devices=2)\nValueError: You set "
        "`strategy=ddp` but strategies from the DDP family are not supported on the MPS "
        "accelerator. Either explicitly set `accelerator='cpu'` or change the strategy.\n",
        "GPU available: True (mps), used: True\n"),
    # Windows and macOS wheels never have NCCL (their CUDA builds included); nor do CPU wheels
    "nccl-not-in-build": (
        "[2024-04-23 13:27:20,383] torch.distributed.elastic.multiprocessing.redirects: "
        "[WARNING] NOTE: Redirects are currently not supported in Windows or MacOs.\n" + TRACE
        + "    dist.init_process_group('nccl')\n  File \"C:\\envs\\llm\\lib\\site-packages\\torch"
        "\\distributed\\distributed_c10d.py\", line 1442, in _new_process_group_helper\n    raise "
        "RuntimeError(\"Distributed package doesn't have NCCL built in\")\nRuntimeError: "
        "Distributed package doesn't have NCCL built in\n",
        "NCCL built in: yes (version 2.21.5)\n"),
    # a frozen base model (LoRA) under reentrant checkpointing: the warning, then backward fails
    "loss-without-grad": (
        "/venv/lib/python3.10/site-packages/torch/utils/checkpoint.py:31: UserWarning: None of "
        "the inputs have requires_grad=True. Gradients will be None\n" + TRACE
        + "    self.accelerator.backward(loss)\n  File \"/venv/lib/python3.10/site-packages/torch/"
        "autograd/__init__.py\", line 200, in backward\nRuntimeError: element 0 of tensors does "
        "not require grad and does not have a grad_fn\n",
        "/venv/lib/python3.10/site-packages/torch/utils/checkpoint.py:31: UserWarning: None of "
        "the inputs have requires_grad=True. Gradients will be None\n"),
    "evaluate-cache-collision": (
        TRACE + "    metric.compute()\nValueError: Error in finalize: another evaluation module "
        "instance is already using the local cache file. Please specify an experiment_id to "
        "avoid collision between distributed evaluation module instances.\n",
        "Loading cached processed dataset at /root/.cache/huggingface/datasets/json/default/"
        "cache-9a1b.arrow\n"),
    "mp-start-method-set-twice": (
        TRACE + "    mp.set_start_method('spawn')\n  File \"/usr/lib/python3.10/multiprocessing/"
        "context.py\", line 247, in set_start_method\n    raise RuntimeError('context has "
        "already been set')\nRuntimeError: context has already been set\n",
        "multiprocessing start method: spawn (set once in __main__)\n"),
    "hydra-resolver-in-spawn": (
        "-- Process 0 terminated with the following error:\n" + TRACE
        + "    out_dir = cfg.paths.output_dir\nomegaconf.errors.UnsupportedInterpolationType: "
        "Unsupported interpolation type hydra\n    full_key: paths.output_dir\n",
        "UserWarning: Future Hydra versions will no longer change working directory at job "
        "runtime by default.\n"),
    "accelerate-notebook-accelerator-exists": (
        TRACE + "    notebook_launcher(train, (), num_processes=2)\nValueError: To launch a "
        "multi-GPU training from your notebook, the `Accelerator` should only be initialized "
        "inside your training function. Restart your notebook and make sure no cells "
        "initializes an `Accelerator`.\n",
        "Launching training on 2 GPUs.\n"),
    # WSL2: the driver's libcuda.so is in /usr/lib/wsl/lib, off the loader's path
    "cudnn-libcuda-missing": (
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared "
        "object file: No such file or directory\nPlease make sure libcudnn_cnn_infer.so.8 is in "
        "your library path!\nAborted (core dumped)\n",
        "found libcuda.so.1 in /usr/lib/wsl/lib (WSL2)\n"),
    "filesystem-no-locks": (
        TRACE + "    ds = load_dataset('json', data_files=path)\n  File \"/venv/lib/python3.10/"
        "site-packages/filelock/_unix.py\", line 39, in _acquire\n    fcntl.flock(fd, "
        "fcntl.LOCK_EX | fcntl.LOCK_NB)\nOSError: [Errno 37] No locks available\n",
        "Using custom data configuration default-1a2b (lock acquired)\n"),
    # FSDP over 8-bit quantized weights: not a bf16/fp32 mix, casting cannot help
    "fsdp-quantized-int8": (
        TRACE + "    model = FSDP(model, auto_wrap_policy=policy)\nValueError: Must flatten "
        "tensors with uniform dtype but got torch.bfloat16 and torch.int8\n",
        "FSDP: flattened 291 tensors with uniform dtype torch.bfloat16\n"),
    # a container user with no /etc/passwd entry: inductor cannot name its cache folder
    "inductor-cache-no-username": (
        "[rank0]:   File \"/usr/local/lib/python3.12/site-packages/torch/_inductor/runtime/"
        "cache_dir_utils.py\", line 23, in default_cache_dir\n[rank0]:     return "
        "pwd.getpwuid(os.getuid())[0]\n[rank0]: torch._dynamo.exc.BackendCompilerFailed: "
        "backend='inductor' raised:\n[rank0]: KeyError: 'getpwuid(): uid not found: 1042'\n",
        "W0612 10:20:42.000000 4121 torch/_inductor/codecache.py:1204] Cache Metrics: "
        "FxGraphCache hit 3 miss 0\n"),
    "inductor-cache-race": (
        "[rank60]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "[rank60]: FileNotFoundError: [Errno 2] No such file or directory: '/tmp/"
        "torchinductor_ubuntu/triton/4/5eba80077c5d5c6def3f812b8cccbc7d/triton_.cubin.tmp."
        "pid_93828_100098'\n",
        "W0612 10:20:42.000000 4121 torch/_inductor/codecache.py:1204] [0/0] Bypassing FX "
        "Graph Cache because 'Cannot pickle'\n"),
    "compile-ddp-higher-order-op": (
        "[rank0]: torch._dynamo.exc.BackendCompilerFailed: backend='compile_fn' raised:\n"
        "[rank0]: NotImplementedError: DDPOptimizer backend: Found a higher order op in the "
        "graph. This is not supported. Please turn off DDP optimizer using "
        "torch._dynamo.config.optimize_ddp=False.\n",
        "[rank0]:I0612 10:20:42.000000 4121 torch/_dynamo/backends/distributed.py:412] [0/0] "
        "DDPOptimizer used bucket cap 26214400 and created 12 buckets.\n"),
    "compile-fsdp-orig-params": (
        TRACE + "    assert getattr(\nAssertionError: Dynamo only supports FSDP with "
        "use_orig_params=True\n\nfrom user code:\n   File \"modeling_llama.py\", line 620, in "
        "forward\n",
        "fsdp_config: {'sharding_strategy': 'FULL_SHARD', 'use_orig_params': True,}\n"),
    "compile-recompile-limit": (
        "[rank0]:W0110 12:27:06.332000 158 torch/_dynamo/convert_frame.py:1551] [2/8] "
        "torch._dynamo hit config.recompile_limit (8)\n[rank0]:W0110 12:27:06.332000 158 "
        "torch/_dynamo/convert_frame.py:1551] [2/8]    last reason: 2/7: tensor 'X[0]' size "
        "mismatch at index 1. expected 640, actual 8.\n[rank0]: torch._dynamo.exc."
        "FailOnRecompileLimitHit: recompile_limit reached with fullgraph=True. Excessive "
        "recompilations can degrade performance due to the compilation overhead of each "
        "recompilation.\n",
        "[rank0]:W0612 10:20:42.000000 4121 torch/_dynamo/convert_frame.py:844] [1/8] "
        "torch._dynamo hit config.cache_size_limit (8)\n"),
    "inductor-openmp-missing": (
        "[rank0]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "[rank0]: CppCompileError: C++ compile error\n[rank0]: /tmp/torchinductor_user/td/"
        "ctdkbp2r.cpp:2:10: fatal error: 'omp.h' file not found\n[rank0]: #include <omp.h>\n",
        "#pragma omp parallel num_threads(8)\n"),
    "device-mesh-heterogeneous": (
        TRACE + "    mesh = init_device_mesh('cuda', (2, 3))\nRuntimeError: DeviceMesh only "
        "support homogeneous hardware, but found 6 ranks and 4 cuda devices!\n",
        "UserWarning: It seems like you did not set/select the default device for the current "
        "process before the DeviceMesh initialization or use a launcher (i.e. torchrun) which "
        "populates `LOCAL_RANK` environment variable. It is recommended to set the current "
        "device for the process BEFORE the DeviceMesh initialization so that the underlying "
        "communicator (i.e. NCCL) can be initialized properly. Otherwise, DeviceMesh will "
        "automatically use the device_id via global_rank % num_devices_per_host, assuming "
        "homogeneous hardware cluster.\n"),
    "pipeline-batch-smaller-than-chunks": (
        TRACE + "    schedule.step(input_ids, attention_mask=mask)\nRuntimeError: Arg "
        "attention_mask on chunking dimension has a size of 2, smaller than the number of "
        "chunks 8. PiPPy cannot reduce the number of chunks because other arguments have "
        "bigger chunk-dimension sizes. Please adjust your num_chunks setting.\n",
        "W0612 10:20:42.000000 4121 torch/distributed/pipelining/microbatch.py:301] Tensor "
        "size on chunking dimension is 16, downsizing the number of chunks from 32 to 16.\n"),
    # torch.distributed.checkpoint: the inner error of the CheckpointException is the cause
    "dcp-missing-key": (
        "[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException "
        "ranks:dict_keys([0, 1])\n[rank0]: Traceback (most recent call last): (RANK 0)\n"
        "[rank0]:   File \"/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/"
        "default_planner.py\", line 354, in create_default_local_load_plan\n[rank0]:     raise "
        "RuntimeError(f\"Missing key in checkpoint state_dict: {fqn}.\")\n[rank0]: RuntimeError: "
        "Missing key in checkpoint state_dict: dataloader.dp_rank_0.\n",
        "[rank0]: loaded 291 keys from checkpoint step-1000 (dataloader state included)\n"),
    "dcp-async-save-cpu-backend": (
        TRACE + "    dcp.async_save(state_dict, checkpoint_id=path)\nAssertionError: A CPU "
        "backend must be enabled for async save; try initializing process group with "
        "'cpu:gloo,cuda:nccl'\n",
        "FutureWarning: `save_state_dict` is deprecated and will be removed in future versions."
        "Please use `save` instead.\n"),
    # fbgemm_gpu's library did not load (another CUDA major version), so its ops are missing
    "fbgemm-ops-missing": (
        "libcudart.so.12: cannot open shared object file: No such file or directory\n" + TRACE
        + "    import fbgemm_gpu  # noqa: F401, E402\n  File \"/venv/lib/python3.10/site-packages/"
        "torch/_ops.py\", line 569, in __getattr__\n    raise AttributeError(\nAttributeError: "
        "'_OpNamespace' 'fbgemm' object has no attribute 'jagged_2d_to_dense'\n",
        "INFO:torchrec.distributed: fbgemm_gpu 0.8.0 loaded\n"),
    # slurmstepd/srun when a node of the allocation dies; the task killed on the surviving
    # node is its echo
    "slurm-node-failure": (
        "srun: error: Node failure on gpu-node-07\n"
        "slurmstepd: error: *** STEP 88123.0 ON gpu-node-01 CANCELLED AT 2024-03-11T04:12:55 DUE "
        "TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n"
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
        "srun: error: gpu-node-01: task 0: Killed\n",
        "srun: launching StepId=88123.0 on host gpu-node-07, 8 tasks: [0-7]\n"),
    # ESLURM_INVALID_TASK_MEMORY (slurm_errno.c)
    "slurm-step-memory-unavailable": (
        "srun: error: Unable to create step for job 29986033: Memory required by task is not "
        "available\n",
        "srun: job 29986033 has been allocated resources\n"),
    # PBS Pro's MoM and LSF's job report, in the job's output file
    "pbs-walltime": (
        "=>> PBS: job killed: walltime 86430 exceeded limit 86400\n",
        "   Walltime Used:      23:59:10\n   Exit Status:        0\n"),
    # tensorflow load_library.py load_op_library (DeePMD-kit's op library)
    "tensorflow-op-library-mismatch": (
        TRACE + "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\ntensorflow.python."
        "framework.errors_impl.NotFoundError: /venv/lib/python3.9/site-packages/deepmd/"
        "libop_abi.so: undefined symbol: _ZN10tensorflow14kernel_factory17OpKernelRegistrar12"
        "InitInternalEPKNS_9KernelDefEN4absl11string_viewE\n",
        "Loaded op library /venv/lib/python3.9/site-packages/deepmd/libop_abi.so\n"),
    # torch_geometric/sampler/neighbor_sampler.py _sample
    "pyg-sampler-libs-missing": (
        TRACE + "    raise ImportError(f\"'{self.__class__.__name__}' requires \"\nImportError: "
        "'NeighborSampler' requires either 'pyg-lib' or 'torch-sparse'\n",
        "NeighborSampler uses 'pyg-lib' (torch-sparse also available)\n"),
    # deepspeed/ops/op_builder/builder.py jit_load (EvoformerAttnBuilder not compatible)
    "deepspeed-evoformer-cutlass-missing": (
        "[WARNING] Please specify CUTLASS location directory as environment variable "
        "CUTLASS_PATH\n" + TRACE + "    kernel_ = EvoformerAttnBuilder().load()\nRuntimeError: "
        "Unable to JIT load the evoformer_attn op due to it not being compatible due to "
        "hardware/software issue. None\n",
        "Loading extension module evoformer_attn...\nTime to load evoformer_attn op: 0.41 "
        "seconds\n"),
    # dgl/graphbolt/base.py (DGL 2.1-2.4) with torchdata 0.10
    "torchdata-datapipes-removed": (
        TRACE + "    from torchdata.datapipes.iter import IterDataPipe\nModuleNotFoundError: No "
        "module named 'torchdata.datapipes'\n",
        "torchdata 0.9.0 installed: torchdata.datapipes available\n"),
    # esm/esmfold/v1/esmfold.py
    "esmfold-openfold-missing": (
        TRACE + "  File \"/venv/lib/python3.9/site-packages/esm/esmfold/v1/esmfold.py\", line "
        "11, in <module>\n    from openfold.data.data_transforms import make_atom14_masks\n"
        "ModuleNotFoundError: No module named 'openfold'\n",
        "openfold 1.0.1 imported from /venv/lib/python3.10/site-packages/openfold\n"),
    # openfold/utils/kernel/attention_core.py
    "openfold-extension-not-built": (
        TRACE + "    attn_core_inplace_cuda = importlib.import_module(\"attn_core_inplace_cuda\")"
        "\nModuleNotFoundError: No module named 'attn_core_inplace_cuda'\n",
        "building 'attn_core_inplace_cuda' extension\n"),
    # torch/serialization.py find_class inside torch.load (a MACE .model of a newer mace-torch)
    "checkpoint-module-missing": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/torch/serialization.py\", line 1422, "
        "in _load\n    result = unpickler.load()\n  File \"/venv/lib/python3.10/site-packages/"
        "torch/serialization.py\", line 1415, in find_class\n    return super().find_class("
        "mod_name, name)\nModuleNotFoundError: No module named 'mace.modules.embeddings'\n",
        "  File \"/venv/lib/python3.10/site-packages/torch/serialization.py\", line 1415, in "
        "find_class\nmodel loaded: mace.modules.models.ScaleShiftMACE\n"),
    # torch/utils/data/distributed.py __iter__ (torch < 1.8)
    "dataset-smaller-than-world-size": (
        TRACE + "  File \"/venv/lib/python3.6/site-packages/torch/utils/data/distributed.py\", "
        "line 107, in __iter__\n    assert len(indices) == self.total_size\nAssertionError\n",
        "DistributedSampler: total_size 1024, num_samples 128 per rank\n"),
    # pytorch_forecasting/data/timeseries.py _construct_index
    "timeseries-shorter-than-window": (
        TRACE + "    assert (\nAssertionError: filters should not remove entries all entries - "
        "check encoder/decoder lengths and lags\n",
        "TimeSeriesDataSet: 1520 samples, encoder length 24, prediction length 6\n"),
    # torch_geometric/data/data.py __getattr__
    "pyg-data-older-version": (
        TRACE + "RuntimeError: The 'data' object was created by an older version of PyG. If "
        "this error occurred while loading an already existing dataset, remove the "
        "'processed/' directory in the dataset's root folder and try again.\n",
        "Processing...\nDone! (processed/ written by PyG 2.5.3)\n"),
    # torch_geometric/nn/conv/message_passing.py _index_select_safe
    "pyg-edge-index-out-of-range": (
        TRACE + "    raise IndexError(\nIndexError: Found indices in 'edge_index' that are larger "
        "than 0 (got 145). Please ensure that all indices in 'edge_index' point to valid "
        "indices in the interval [0, 1) in your node feature matrix and try again.\n",
        "Data(x=[2708, 1433], edge_index=[2, 10556]): edge_index max 2707 < num_nodes\n"),
    # dgl/nn/pytorch/conv/graphconv.py forward
    "dgl-zero-in-degree": (
        TRACE + "dgl._ffi.base.DGLError: There are 0-in-degree nodes in the graph, output for "
        "those nodes will be invalid. This is harmful for some applications, causing silent "
        "performance regression.\n",
        "    allow_zero_in_degree : bool, optional\n        If there are 0-in-degree nodes in "
        "the graph, output for those nodes will be invalid\n        since no message will be "
        "passed to those nodes. This is harmful for some applications\n"),
    # code calling torch_scatter 2.x with torch-scatter 1.x's fill_value
    "torch-scatter-fill-value-removed": (
        TRACE + "    out = op(src, index, 0, None, dim_size, fill_value)\nRuntimeError: "
        "scatter_add() expected at most 5 argument(s) but received 6 argument(s). "
        "Declaration: scatter_add(Tensor src, Tensor index, int dim=-1, Tensor? out=None, "
        "int? dim_size=None) -> (Tensor)\n",
        "torch_scatter 2.1.2: scatter_add(src, index, dim=-1, out=None, dim_size=None)\n"),
    # lightning/pytorch/trainer/connectors/accelerator_connector.py
    "lightning-fork-unsupported": (
        TRACE + "ValueError: You selected `Trainer(strategy='ddp_fork')` but process forking is "
        "not supported on this platform. We recommed `Trainer(strategy='ddp_spawn')` "
        "instead.\n",
        "Trainer(strategy='ddp_spawn'): process forking is not needed\n"),
    # openfold/utils/kernel/attention_core.py on CPU tensors
    "openfold-kernel-on-cpu": (
        TRACE + "    attn_core_inplace_cuda.forward_(\nRuntimeError: "
        "attn_softmax_inplace_forward_ not implemented on CPU\n",
        "attn_softmax_inplace_forward_ dispatched to CUDA\n"),
    # torch 1.12 csrc/jit/codegen/cuda/type_promotion.cpp (e3nn's scripted functions)
    "nvfuser-missing-scalar-type": (
        TRACE + "RuntimeError: tensor_type->scalarType().has_value() INTERNAL ASSERT FAILED at "
        "\"/opt/conda/conda-bld/pytorch/work/torch/csrc/jit/codegen/cuda/type_promotion.cpp\":"
        "111, please report a bug to PyTorch. Missing Scalar Type information\n",
        "nvFuser disabled; tensor_type scalarType set for every input\n"),
    # dgl/heterograph.py _set_n_repr (several causes)
    "dgl-feature-count-mismatch": (
        TRACE + "    raise DGLError('Expect number of features to match number of nodes (len(u)).'"
        "\ndgl._ffi.base.DGLError: Expect number of features to match number of nodes "
        "(len(u)). Got 18612081 and 18612080 instead.\n",
        "g.ndata['feat']: 18612080 rows for 18612080 nodes\n"),
    "pbs-memory-limit": (
        "=>> PBS: job killed: mem 263472128kb exceeded limit 251658240kb\n",
        "    resources_used.mem = 198234112kb\n    Resource_List.mem = 251658240kb\n"),
    "lsf-run-limit": (
        "TERM_RUNLIMIT: job killed after reaching LSF run time limit.\nExited with exit code "
        "140.\n",
        "Successfully completed.\n"),
    "lsf-memory-limit": (
        "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.\nExited with exit code "
        "137.\n",
        "Successfully completed.\n"),
    # lightning/fabric/plugins/environments/slurm.py
    "lightning-slurm-mismatch": (
        TRACE + "    trainer.fit(model)\nValueError: You set `devices=4` in Lightning, but the "
        "number of tasks per node configured in SLURM `--ntasks-per-node=1` does not match. "
        "HINT: Set `devices=1`.\n",
        "PossibleUserWarning: The `srun` command is available on your system but is not used. "
        "HINT: If your intention is to run Lightning on SLURM, prepend your python command with "
        "`srun` like so: srun python train.py\n"),
    # the kubelet's eviction manager, as kubectl describe pod shows it
    "k8s-evicted-ephemeral-storage": (
        "Status:           Failed\nReason:           Evicted\nMessage:          The node was low "
        "on resource: ephemeral-storage. Threshold quantity: 10120387530, available: 9702960Ki. "
        "Container pytorch was using 26498512Ki, request is 0, has larger consumption of "
        "ephemeral-storage.\n",
        "    Limits:\n      ephemeral-storage:  50Gi\n"),
    "k8s-evicted-memory-pressure": (
        "Status:           Failed\nReason:           Evicted\nMessage:          The node was low "
        "on resource: memory. Threshold quantity: 100Mi, available: 92284Ki. Container pytorch "
        "was using 61247308Ki, request is 32Gi, has larger consumption of memory.\n",
        "    Limits:\n      memory:  64Gi\n"),
    # the kube job-controller's conditions (the training operator copies them into the PyTorchJob)
    "k8s-job-deadline": (
        "  Warning  DeadlineExceeded  3m  job-controller  Job was active longer than specified "
        "deadline\n",
        "  activeDeadlineSeconds: 86400\n"),
    # a fallback: the failed pods' own logs hold the cause (kubectl wait's error shows it failed)
    "k8s-job-backoff-limit": (
        "  Warning  BackoffLimitExceeded  1m  job-controller  Job has reached the specified "
        "backoff limit\nerror: timed out waiting for the condition on jobs/train-job\n",
        "  backoffLimit: 4\n"),
    # the kubelet's pull events (kubectl describe pod); a pull retried and then done is healthy
    "k8s-image-pull-failed": (
        "  Normal   Pulling    2m   kubelet  Pulling image \"nvcr.io/nvidia/pytorch:24.13-py3\"\n"
        "  Warning  Failed     2m   kubelet  Failed to pull image \"nvcr.io/nvidia/pytorch:24.13-"
        "py3\": rpc error: code = NotFound desc = failed to pull and unpack image: not found\n"
        "  Warning  Failed     2m   kubelet  Error: ErrImagePull\n"
        "  Normal   BackOff    1m   kubelet  Back-off pulling image \"nvcr.io/nvidia/pytorch:"
        "24.13-py3\"\n  Warning  Failed     1m   kubelet  Error: ImagePullBackOff\n" + STORE_WAITED,
        "  Normal   Pulling    2m   kubelet  Pulling image \"nvcr.io/nvidia/pytorch:24.03-py3\"\n"
        "  Normal   Pulled     1m   kubelet  Successfully pulled image \"nvcr.io/nvidia/pytorch:"
        "24.03-py3\" in 1.06s\n"),
    "k8s-gpu-unschedulable": (
        "  Warning  FailedScheduling  2m  default-scheduler  0/8 nodes are available: 8 "
        "Insufficient nvidia.com/gpu. preemption: 0/8 nodes are available: 8 No preemption "
        "victims found for incoming pod.\n" + STORE_WAITED,
        "  Normal   Scheduled  2m  default-scheduler  Successfully assigned ns/job-worker-0 to "
        "node-1\n"),
    # Vertex AI's job error
    "vertex-replica-oom": (
        "The replica workerpool0-0 ran out-of-memory and exited with a non-zero status of "
        "9(SIGKILL). To find out more about why your job exited please check the logs: "
        "https://console.cloud.google.com/logs/viewer?project=1234\n",
        "Job completed successfully.\n"),
    # Modal's runner; runs that recover print it too
    "platform-preempted": (
        "epoch 3 step 1200 loss 1.92\nRunner interrupted due to worker preemption. Your "
        "Function will be restarted with the same input.\ntorch.distributed.elastic.multiprocessing"
        ".api.SignalException: Process 140 got signal: 15\n",
        "Runner interrupted due to worker preemption. Your Function will be restarted with the "
        "same input.\nepoch 0 step 1 loss 2.3026\nTraining finished\n"),
    # botocore, google-auth, azure-identity
    "cloud-credentials-missing": (
        TRACE + "    s3.download_file(bucket, key, dest)\nbotocore.exceptions.NoCredentialsError: "
        "Unable to locate credentials\n",
        "INFO azure.identity._credentials.environment: No environment configuration found.\n"),
    "s3-token-expired": (
        TRACE + "    s3.upload_file(path, bucket, key)\nboto3.exceptions.S3UploadFailedError: "
        "Failed to upload /tmp/ckpt/model.safetensors to ckpts/run7/model.safetensors: An error "
        "occurred (ExpiredToken) when calling the CreateMultipartUpload operation: The provided "
        "token has expired.\n",
        "botocore.credentials INFO Found credentials in environment variables.\n"),
    "object-store-access-denied": (
        TRACE + "    s3.download_file(bucket, key, dest)\nbotocore.exceptions.ClientError: An "
        "error occurred (AccessDenied) when calling the GetObject operation: Access Denied\n",
        "An error occurred (404) when calling the HeadObject operation: Not Found\n"),
    "object-store-throttled": (
        TRACE + "    s3.put_object(Bucket=bucket, Key=key, Body=data)\nbotocore.exceptions."
        "ClientError: An error occurred (SlowDown) when calling the PutObject operation "
        "(reached max retries: 4): Please reduce your request rate.\n",
        "botocore.retries.standard DEBUG Retry needed, retrying request after delay of: 0.5 "
        "(SlowDown)\n"),
    # ray/train/_internal/storage.py (Ray 2.7 and later)
    "ray-storage-not-shared": (
        TRACE + "    result = trainer.fit()\nRuntimeError: Unable to set up cluster storage with "
        "the following settings: StorageContext<storage_filesystem='local', storage_fs_path="
        "'/home/ray/ray_results'> Check that all nodes in the cluster have read/write access to "
        "the configured storage path.\n",
        "Checkpoint successfully created at: Checkpoint(filesystem=local, path=/mnt/"
        "cluster_storage/exp/checkpoint_000001)\n"),
    # streaming/base/shared/prefix.py
    "streaming-reused-local-dir": (
        TRACE + "    ds = StreamingDataset(remote=remote, local='/tmp/mds-cache/train')\nValueError: "
        "Reused local directory: ['/tmp/mds-cache/train'] vs ['/tmp/mds-cache/train']. Provide a "
        "different one. If using a unique local directory, try deleting the local directory and "
        "call `streaming.base.util.clean_stale_shared_memory()` only once in your script to "
        "clean up the stale shared memory before instantiation of `StreamingDataset`.\n",
        "UserWarning: Because `predownload` was not specified, it will default to 8*batch_size "
        "if batch_size is not None, otherwise 64.\n"),
    # NCCL's first CUDA call, where CUDA itself could not start (NVLS only noticed it)
    "cuda-init-failed-in-nccl": (
        "worker-1: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1197, "
        "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.3\n"
        "worker-1: ncclUnhandledCudaError: Call to CUDA function failed.\nworker-1: Last error:\n"
        "worker-1: Cuda failure 'initialization error'\nworker-1: worker-1:2914:4490 [0] "
        "transport/nvls.cc:245 NCCL WARN Cuda failure 'initialization error'\n",
        "NCCL INFO cudaDriverVersion 12020\nNCCL INFO initialization done in 0.3 s\n"),
    "nccl-topology-no-path": (
        "DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, internal error, NCCL version "
        "2.14.3\nncclInternalError: Internal check failed.\nLast error:\nFailed to find reverse "
        "path from remNode 0/5f000 nlinks 4 to node 0/cb000\n",
        "node-0:1288:1301 [0] NCCL INFO Topology detection: network path /sys/devices/pci0000:00 "
        "is not a PCI device (vmbus). Attaching to first CPU\n"),
    "model-parallel-checkpoint-world-size": (
        TRACE + "    assert model_parallel_size == len(\nAssertionError: Loading a checkpoint for "
        "MP=2 but world size is 1\n",
        "> initializing model parallel with size 2\nLoaded in 11.71 seconds\n"),
    "model-checkpoint-shards-not-found": (
        TRACE + "    assert world_size == len(\nAssertionError: Loading a checkpoint for MP=0 but "
        "world size is 1\n",
        "Loading checkpoint shards: 100%|##########| 2/2 [00:04<00:00,  2.10s/it]\n"),
    "vllm-local-world-size": (
        "(EngineCore_DP0 pid=570282)     assert self.parallel_config.local_world_size <= "
        "visible_device_count, (\n(EngineCore_DP0 pid=570282) AssertionError: local_world_size "
        "(16) must be less than or equal to the number of visible devices (8).\n",
        "INFO 11-18 10:02:11 [parallel_state.py:1208] rank 3 in world size 16 is assigned as "
        "DP rank 0, PP rank 0, TP rank 3, local_world_size 8\n"),
    "unsloth-multi-gpu-unsupported": (
        "RuntimeError                              Traceback (most recent call last)\n"
        "----> 1 trainer_stats = trainer.train()\n\nRuntimeError: Unsloth currently does not "
        "support multi GPU setups - but we are working on it!\n",
        "==((====))==  Unsloth 2024.8: Fast Llama patching. Transformers = 4.44.0.\n"
        "   \\\\   /|    GPU: NVIDIA A100-SXM4-80GB. Max memory: 79.151 GB. Platform = Linux.\n"),
    "hf-hub-rate-limited": (
        TRACE + "huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for "
        "url: https://huggingface.co/api/datasets/allenai/c4/tree/main/en\n",
        # retried and went on: huggingface_hub's retries did their job
        "HTTP Error 429 thrown while requesting HEAD https://huggingface.co/meta-llama/"
        "Llama-3.1-8B/resolve/main/config.json\nRate limited. Waiting 2.0s before retry "
        "[Retry 1/5].\nLoading checkpoint shards: 100%|##########| 4/4\nstep 1 loss 2.3\n"),
    "checkpoint-recompute-mismatch": (
        "[rank3]: torch.utils.checkpoint.CheckpointError: torch.utils.checkpoint: Recomputed "
        "values for the following tensors have different metadata than during the forward "
        "pass.\n[rank3]: tensor at position 9:\n[rank3]: saved metadata: {'shape': "
        "torch.Size([2, 1, 4127, 128]), 'dtype': torch.bfloat16, 'device': device(type='cuda', "
        "index=3)}\n",
        "UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed "
        "explicitly.\n"),
    "torch-without-distributed": (
        TRACE + "    dist.init_process_group(backend='gloo')\nAttributeError: module "
        "'torch.distributed' has no attribute 'init_process_group'\n",
        "torch.distributed available: True, backends: gloo, nccl\n"),
    "launch-variable-empty": (
        "usage: train.py [-h] [--rank RANK] [--world-size WORLD_SIZE]\ntrain.py: error: "
        "argument --rank: invalid int value: ''\n",
        "  --rank RANK    the node's rank (an int; default: '')\nstep 1 loss 2.30\n"),
    "launcher-command-not-found": (
        "(head, rank=0, pid=1113) Starting distributed training\n(head, rank=0, pid=1113) "
        "bash: torchrun: command not found\n",
        "bash: nvidia-smi: command not found\nstep 1 loss 2.30 (CPU run)\n"),
    "torch-too-old-for-nccl": (
        "host:2396:2428 [0] misc/argcheck.cc:40 NCCL WARN Reduce : invalid root 0 (root should "
        "be in the 0..0 range)\nhost:2396:2428 [0] init.cc:840 NCCL WARN comm 0x7fdee40000c0 has "
        "already been destroyed\nterminate called after throwing an instance of "
        "'std::runtime_error'\n  what():  NCCL Error 4: invalid argument\nAborted (core dumped)\n",
        "host:2396:2428 [0] NCCL INFO Reduce: opCount 12 sendbuff 0x7f root 0 nranks 2\n"),
    "script-not-found": (
        "/usr/bin/python3: can't open file '/home/user/train.py': [Errno 2] No such file or "
        "directory\nE0612 10:20:42.123000 1234 api.py:881] failed (exitcode: 2) local_rank: 0 "
        "(pid: 1235) of binary: /usr/bin/python3\n",
        "Saving to /home/user/ckpt/last.pt (No such file or directory before: created)\n"),
    "numpy-removed-name": (
        TRACE + "  File \"/venv/lib/python3.9/site-packages/deepspeed/autotuning/scheduler.py\", "
        "line 8, in <module>\n    from numpy import BUFSIZE\nImportError: cannot import name "
        "'BUFSIZE' from 'numpy' (/venv/lib/python3.9/site-packages/numpy/__init__.py)\n",
        "numpy 2.1.3: np.float64 and np.nan used; module 'numpy' has everything it needs\n"),
    "nccl-graph-file-mismatch": (
        "node:73025:73112 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/"
        "ncv4/graph.xml\nnode:73025:73112 [0] graph/search.cc:719 NCCL WARN XML Import Channel "
        ": dev 1 not found.\nnode:73025:73112 [0] NCCL INFO graph/search.cc:749 -> 2\n",
        "node:73025:73112 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/"
        "ncv4/graph.xml\nnode:73025:73112 [0] NCCL INFO Channel 00/02 : 0 1\n"),
    "interrupted-in-collective": (
        "[rank1]: Traceback (most recent call last):\n[rank1]:   File \"train.py\", line 40, in "
        "<module>\n[rank1]:     dist.barrier()\n[rank1]:   File \"/venv/lib/python3.11/site-"
        "packages/torch/distributed/distributed_c10d.py\", line 4159, in barrier\n[rank1]:     "
        "work.wait()\n[rank1]: KeyboardInterrupt\n",
        "[rank1]: step 200: dist.barrier() done; KeyboardInterrupt handler installed\n"),
    # vLLM's pynccl (pynccl_wrapper.py NCCL_CHECK) on a rank whose peer went away
    "nccl-remote-error": (
        TRACE + "    raise RuntimeError(f\"NCCL error: {error_str}\")\nRuntimeError: NCCL error: "
        "remote process exited or there was a network error\n",
        "node1:812:830 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n"
        "node1:812:830 [0] NCCL INFO comm 0x5581 rank 0 nranks 16 - Init COMPLETE\n"),
    # DeepSpeed's launcher (launcher/runner.py), after its warning that it found no hostfile
    "deepspeed-no-hostfile": (
        "[2024-05-02 10:11:12,345] [WARNING] [runner.py:202:fetch_hostfile] Unable to find "
        "hostfile, will proceed with training with local resources only.\n" + TRACE
        + "    raise ValueError(\"Num nodes is >1 but no extra nodes available via hostfile\")\n"
        "ValueError: Num nodes is >1 but no extra nodes available via hostfile\n",
        "[2024-05-02 10:11:12,345] [WARNING] [runner.py:202:fetch_hostfile] Unable to find "
        "hostfile, will proceed with training with local resources only.\n"
        "[2024-05-02 10:11:13,001] [INFO] [runner.py:568:main] cmd = /usr/bin/python -u -m "
        "deepspeed.launcher.launch --world_info=e30= --master_addr=127.0.0.1 train.py\n"),
    # NumPy 2.4 (numpy/_core/__init__.py) with its _multiarray_umath missing
    "numpy-install-broken": (
        TRACE + "    raise ImportError(msg) from exc\nImportError: \n\nIMPORTANT: PLEASE READ THIS "
        "FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n\nImporting the numpy C-extensions failed. "
        "This error can happen for\nmany reasons, often due to issues with your setup or how "
        "NumPy was\ninstalled.\n\nOriginal error was: No module named "
        "'numpy._core._multiarray_umath'\n",
        "numpy 2.4.6 /venv/lib/python3.11/site-packages/numpy/__init__.py; C-extensions loaded\n"),
    "numpy-pickle-from-numpy2": (
        TRACE + "    state = torch.load(path, weights_only=False)\nModuleNotFoundError: No module "
        "named 'numpy._core'\n",
        "numpy 2.1.3 loaded from site-packages/numpy/_core; checkpoint read\n"),
    # SGLang 0.4.6 (model_executor/model_runner.py init_torch_distributed)
    "sglang-memory-unbalanced": (
        TRACE + "    min_per_gpu_memory = self.init_torch_distributed()\nValueError: The memory "
        "capacity is unbalanced. Some GPUs may be occupied by other processes. "
        "min_per_gpu_memory=30.52, local_gpu_memory=78.61, local_gpu_memory * 0.9=70.749\n",
        "[2025-05-02 10:11:12 TP0] WARNING model_runner.py:387: The memory capacity is "
        "unbalanced. Some GPUs may be occupied by other processes. min_per_gpu_memory=30.52\n"
        "[2025-05-02 10:11:40 TP0] Load weight end. mem usage=14.99 GB.\n"),
    # verl 0.5.0 (workers/rollout/vllm_rollout/vllm_rollout.py)
    "verl-rollout-tp-too-large": (
        "(WorkerDict pid=4121) " + TRACE + "    assert tensor_parallel_size <= "
        "torch.distributed.get_world_size(), \"tensor parallel size should be less than or "
        "equal to the world size\"\nAssertionError: tensor parallel size should be less than or "
        "equal to the world size\n",
        "(WorkerDict pid=4121) rollout tensor parallel size 2, world size 8\n"),
    # torch_npu 2.6 (NPUCachingAllocator)
    "accelerator-oom": (
        TRACE + "    loss.backward()\nRuntimeError: NPU out of memory. Tried to allocate 2.00 GiB "
        "(NPU 0; 60.97 GiB total capacity; 57.23 GiB already allocated; 57.23 GiB current "
        "active; 1.21 GiB free; 58.81 GiB reserved in total by PyTorch) If reserved memory is >> "
        "allocated memory try setting max_split_size_mb to avoid fragmentation.\n",
        "[rank0] step 100: npu memory allocated 57.23 GiB of 60.97 GiB; PYTORCH_NPU_ALLOC_CONF "
        "unset\n"),
    # torch 2.13's MPS tests quote it
    "mps-dtype-unsupported": (
        TRACE + "    x = torch.from_numpy(batch).to('mps')\nTypeError: Cannot convert a MPS Tensor "
        "to float64 dtype as the MPS framework doesn't support float64. Please use float32 "
        "instead.\n",
        "casting float64 inputs to float32 before moving them to mps\n"),
    # torch 2.13 (xpu/__init__.py)
    "torch-without-xpu": (
        TRACE + "    model.to('xpu')\nAssertionError: Torch not compiled with XPU enabled\n",
        "torch 2.13.0+xpu: compiled with XPU enabled, 4 devices found\n"),
    # megatron-core 0.19.2 megatron/training/arguments.py (--use-megatron-fsdp)
    "megatron-device-max-connections-not-one": (
        TRACE + "    assert os.environ.get('CUDA_DEVICE_MAX_CONNECTIONS') != \"1\", \\\n"
        "AssertionError: FSDP requires CUDA_DEVICE_MAX_CONNECTIONS > 1 or unset.\n",
        "WARNING: Using tensor model parallelism or context parallelism with Megatron-FSDP "
        "together. Try not to using them together since they require different "
        "CUDA_MAX_CONNECTIONS settings for best performance.\n"),
    # datasets 2.14.5 .. 4.0.0 (utils/py_utils.py iflatmap_unordered)
    "datasets-map-worker-died": (
        TRACE + "    ds = ds.map(tokenize, batched=True, num_proc=32)\nRuntimeError: One of the "
        "subprocesses has abruptly died during map operation.To debug the error, disable "
        "multiprocessing.\n",
        "Map (num_proc=32): 100%|##########| 50000/50000 [00:12<00:00, 4012.33 examples/s]\n"),
    # torch 2.13 (PyTorchStreamWriter::setup, libtorch_cpu strings)
    "checkpoint-dir-missing": (
        TRACE + "    torch.save(state, f\"{args.out}/step_{step}/model.pt\")\nRuntimeError: "
        "Parent directory /local/out/step_1000 does not exist.\n",
        "[rank0]: created parent directory /local/out/step_1000; saving model.pt\n"),
    # transformers 4.30 .. 5.24 (trainer.py _load_from_checkpoint)
    "trainer-checkpoint-not-found": (
        TRACE + "    trainer.train(resume_from_checkpoint=args.resume)\nValueError: Can't find a "
        "valid checkpoint at /local/out/checkpoint-1000\n",
        "Loading model from /shared/out/checkpoint-1000 (a valid checkpoint)\n"),
    # wandb 0.19 .. 0.22 (sdk/wandb_init.py)
    "wandb-init-timeout": (
        TRACE + "    wandb.init(project=\"llm\")\nwandb.errors.errors.CommError: Run "
        "initialization has timed out after 90.0 sec. Please try increasing the timeout with "
        "the `init_timeout` setting: `wandb.init(settings=wandb.Settings(init_timeout=120))`.\n",
        "wandb: Run initialization finished after 3.1 sec; syncing run gallant-sun-12\n"),
    "checkpoint-file-not-writable": (
        TRACE + "  File \"/venv/lib/python3.9/site-packages/torch/serialization.py\", line 287, "
        "in __init__\n    super().__init__(torch._C.PyTorchFileWriter(str(name)))\nRuntimeError: "
        "File my_out/checkpoints/checkpoint_0.pt cannot be opened.\n",
        "Saved my_out/checkpoints/checkpoint_0.pt (the file could be opened again to verify)\n"),
    "nccl-call-failed": (
        "node:73025:73112 [0] NCCL INFO Using network Socket\nnode:73025:73112 [0] "
        "graph/search.cc:719 NCCL WARN XML Import Channel : net 3 is unknown\n"
        "node:73025:73112 [0] NCCL INFO graph/search.cc:749 -> 2\n"
        "node:73025:73112 [0] NCCL INFO init.cc:1005 -> 2\nE0612 10:20:42.123000 1234 api.py:881] "
        "failed (exitcode: 1) local_rank: 0 (pid: 73025) of binary: /usr/bin/python3\n",
        "node:73025:73112 [0] NCCL INFO Channel 00/02 : 0[0] -> 1[1] via P2P/IPC\n"
        "node:73025:73112 [0] NCCL INFO comm 0x2012b5e0 rank 0 nranks 2 - Init COMPLETE\n"),
    # slurmctld refusing a submission (sbatch's words); a healthy run names its account
    "slurm-invalid-account": (
        "$ sbatch train.sh\nsbatch: error: Batch job submission failed: Invalid account or "
        "account/partition combination specified\n",
        "Submitted batch job 4242 (account lab-gpu, partition gpu)\nstep 1 loss 2.3\n"),
    "slurm-controller-unreachable": (
        "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect "
        "failure)\n",
        "squeue: the slurm controller is back; contact restored\nSubmitted batch job 4243\n"),
    # the Trainer's checkpoint rotation run by the main process of each node on one shared disk
    "checkpoint-write-race": (
        TRACE + '  File "/venv/lib/python3.10/site-packages/transformers/trainer.py", line 2950, '
        "in _save_checkpoint\n    self._rotate_checkpoints(use_mtime=False, output_dir=run_dir)"
        '\n  File "/venv/lib/python3.10/site-packages/transformers/trainer.py", line 3412, in '
        "_rotate_checkpoints\n    shutil.rmtree(checkpoint, ignore_errors=True)\n"
        "OSError: [Errno 39] Directory not empty: 'out/checkpoint-500'\n",
        "Deleting older checkpoint [out/checkpoint-500] due to args.save_total_limit\n"
        "Saving model checkpoint to out/checkpoint-1000\n"),
    "accelerate-removed-argument": (
        TRACE + "    accelerator = Accelerator(log_with='tensorboard', logging_dir=args.out)\n"
        "TypeError: Accelerator.__init__() got an unexpected keyword argument 'logging_dir'\n",
        "accelerator = Accelerator(log_with='tensorboard', project_dir=args.out)\n"
        "step 1 loss 2.3\n"),
    # torch < 2.0's barrier at init with a one-minute timeout; the default 30 minutes is quiet
    "process-group-timeout-too-short": (
        "Added key: store_based_barrier_key:1 to store for rank: 0\nWaiting in store based "
        "barrier to initialize process group for rank: 0, key: store_based_barrier_key:1 "
        "(world_size=4, worker_count=8, timeout=0:01:00)\nRuntimeError: Timed out initializing "
        "process group in store based barrier on rank: 0, for key: store_based_barrier_key:1 "
        "(world_size=4, worker_count=8, timeout=0:01:00)\n",
        "Waiting in store based barrier to initialize process group for rank: 0, key: "
        "store_based_barrier_key:1 (world_size=4, worker_count=2, timeout=0:30:00)\n"
        "Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 with 4 nodes.\n"),
    # FSDP (1) given a process_group for a tensor-parallel model: torch's storage check, from
    # FSDP freeing a DTensor's storage (pytorch/pytorch#126548)
    "fsdp-tp-needs-device-mesh": (
        TRACE + "    model = FSDP(model, process_group=dp_group, use_orig_params=True)\n"
        "RuntimeError: Attempted to call resize_() on an invalid python storage.\n",
        "FSDP(model, device_mesh=mesh['dp']): 24 flat parameters, storage resize_() at "
        "reshard\n"),
    # another package's Click program installed as torchtune's `tune`
    "launcher-command-shadowed": (
        "$ tune run --nproc_per_node 8 full_finetune_distributed --config qwen2_5/1.5B_full\n"
        "Usage: tune [OPTIONS] COMMAND [ARGS]...\nTry 'tune --help' for help.\n\n"
        "Error: No such command 'run'.\n",
        "usage: tune [-h] {download,ls,cp,run,validate,cat} ...\n"
        "Running FullFinetuneRecipeDistributed with resolved config:\n"),
    # torch_xla's spawn, PJRT and XRT; a healthy run takes the device inside the spawned function
    "xla-device-before-spawn": (
        TRACE + "RuntimeError: Runtime is already initialized. Do not use the XLA device before "
        "calling xmp.spawn.\n",
        "xmp.spawn(_mp_fn, args=(flags,)) started 8 processes; device = xm.xla_device() in each\n"),
    # Lightning's ranks joining, then the store's timeout (2 of 4 started); a run that goes on
    "ranks-stalled-at-init": (
        "GPU available: True (cuda), used: True\nInitializing distributed: GLOBAL_RANK: 0, "
        "MEMBER: 1/4\nInitializing distributed: GLOBAL_RANK: 1, MEMBER: 2/4\n"
        "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. "
        "2/4 clients joined.\n",
        "Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2\nInitializing distributed: "
        "GLOBAL_RANK: 1, MEMBER: 2/2\nEpoch 0:  10%|#  | 10/100 [00:02<00:18, loss=2.3]\n"),
    "launch-script-crlf": (
        "onstart.sh: line 2: $'\\r': command not found\n",
        "onstart.sh: line 2: echo 'done'\n"),
    # transformers' resolve_trust_remote_code: a remote-code model without the flag
    "hf-trust-remote-code-required": (
        TRACE + "    config = AutoConfig.from_pretrained(path)\nValueError: Loading "
        "pansophic/rocket-3B requires you to execute the configuration file in that repo on "
        "your local machine. Make sure you have read the code there to avoid malicious use, "
        "then set the option `trust_remote_code=True` to remove this error.\n",
        # datasets 2.16 .. 2.19 (load.py) warn and go on; the prompt answered at a terminal
        "/usr/lib/python3.10/site-packages/datasets/load.py:1461: FutureWarning: The repository "
        "for hellaswag contains custom code which must be executed to correctly load the "
        "dataset. You can inspect the repository content at https://hf.co/datasets/hellaswag\n"
        "You can avoid this message in future by passing the argument `trust_remote_code=True`."
        "\nPassing `trust_remote_code=True` will be mandatory to load this dataset from the next "
        "major release of `datasets`.\n  warnings.warn(\nThe repository for wikicorpus contains "
        "custom code which must be executed to correctly load the dataset. You can inspect the "
        "repository content at https://hf.co/datasets/wikicorpus.\nYou can avoid this prompt in "
        "future by passing the argument `trust_remote_code=True`.\n\nDo you wish to run the "
        "custom code? [y/N] y\n{'loss': 2.31, 'learning_rate': 1e-05, 'epoch': 0.1}\n"),
    "tokenizer-needs-sentencepiece": (
        TRACE + "    tok = AutoTokenizer.from_pretrained(delta_path)\nValueError: Couldn't "
        "instantiate the backend tokenizer from one of:\n(1) a `tokenizers` library "
        "serialization file,\n(2) a slow tokenizer instance to convert or\n(3) an equivalent "
        "slow tokenizer class to instantiate and convert.\nYou need to have sentencepiece "
        "installed to convert a slow tokenizer to a fast one.\n",
        "Converting the slow tokenizer to a fast one with sentencepiece 0.2.0: done\n"),
    "tokenizer-model-file-missing": (
        TRACE + "  File \"transformers/models/llama/tokenization_llama.py\", line 196, in "
        "get_spm_processor\n    tokenizer.Load(self.vocab_file)\n  File \"sentencepiece/"
        "__init__.py\", line 316, in LoadFromFile\n    return _sentencepiece."
        "SentencePieceProcessor_LoadFromFile(self, arg)\nTypeError: not a string\n",
        "SentencePieceProcessor_LoadFromFile: loaded tokenizer.model (32000 pieces)\n"),
    "sentencepiece-model-file-invalid": (
        TRACE + "  File \"sentencepiece/__init__.py\", line 310, in LoadFromFile\n    return "
        "_sentencepiece.SentencePieceProcessor_LoadFromFile(self, arg)\nRuntimeError: "
        "Internal: src/sentencepiece_processor.cc(1101) [model_proto->ParseFromArray("
        "serialized.data(), serialized.size())]\n",
        "sentencepiece_processor.cc(1101) loaded model_proto of 1018370 bytes\n"),
    "remote-tokenizer-too-old-for-transformers": (
        TRACE + "  File \"tokenization_chatglm.py\", line 106, in vocab_size\n    return "
        "self.tokenizer.n_words\nAttributeError: 'ChatGLMTokenizer' object has no attribute "
        "'tokenizer'. Did you mean: 'tokenize'?\n",
        "ChatGLMTokenizer loaded: vocab_size 64794, sp_model from tokenizer.model\n"),
    "tokenizer-saved-by-newer-transformers": (
        TRACE + "  File \"transformers/tokenization_utils_base.py\", line 2031, in "
        "_from_pretrained\n    raise ValueError(\nValueError: Non-consecutive added token "
        "'<unk>' found. Should have index 32000 but has index 0 in saved vocabulary.\n",
        "Added tokens: '<pad>' at index 32000 (consecutive)\n"),
    "megatron-fused-softmax-kernels-missing": (
        TRACE + "  File \"megatron/core/fusions/fused_softmax.py\", line 200, in "
        "forward_fused_softmax\n    import scaled_softmax_cuda\nModuleNotFoundError: No "
        "module named 'scaled_softmax_cuda'\n",
        "> compiling and loading fused kernels ...\n>>> done with compiling and loading fused "
        "kernels. Compilation time: 2.1 seconds\n"),
    "deepspeed-config-unknown-key": (
        TRACE + "  File \"deepspeed/runtime/config_utils.py\", line 57, in __init__\n    "
        "super().__init__(**data)\npydantic.error_wrappers.ValidationError: 2 validation "
        "errors for DeepSpeedZeroConfig\nzero_hpz_partition_size\n  extra fields not "
        "permitted (type=value_error.extra)\nzero_quantized_gradients\n  extra fields not "
        "permitted (type=value_error.extra)\n",
        "DeepSpeedZeroConfig: stage=3 zero_hpz_partition_size=8 zero_quantized_gradients="
        "True\n"),
    "swift-deepspeed-without-nproc": (
        TRACE + "  File \"swift/llm/utils/argument.py\", line 1031, in __post_init__\n    "
        "raise ValueError('DeepSpeed is not compatible with MP. '\nValueError: DeepSpeed is "
        "not compatible with MP. n_gpu: 7, local_world_size: 1.\n",
        "[INFO:swift] Using DDP + DeepSpeed: n_gpu: 8, local_world_size: 8\n"),
    "unsloth-gguf-llama-cpp-missing": (
        TRACE + "    model.save_pretrained_gguf(out_dir, tokenizer, quantization_method = "
        "\"q4_k_m\")\nRuntimeError: Unsloth: The file 'llama.cpp/llama-quantize' or "
        "'llama.cpp/quantize' does not exist.\nBut we expect this file to exist! Maybe the "
        "llama.cpp developers changed the name?\n",
        "Unsloth: Conversion completed! Output location: ./model-unsloth.Q4_K_M.gguf\n"),
    "qwen-zero3-lora-base-model": (
        TRACE + "  File \"finetune.py\", line 292, in train\n    raise RuntimeError(\"ZeRO3 is "
        "incompatible with LoRA when finetuning on base model.\")\nRuntimeError: ZeRO3 is "
        "incompatible with LoRA when finetuning on base model.\n",
        "finetune.py: LoRA on Qwen-7B-Chat with ZeRO3 (ds_config_zero3.json)\n"),
    "zero3-optimizer-group-empty": (
        TRACE + "  File \"deepspeed/runtime/zero/stage3.py\", line 923, in "
        "initialize_optimizer_states\n    largest_numel = max([sum([p.ds_numel for p in psg]) "
        "for psg in self.fp16_partitioned_groups])\nValueError: max() arg is an empty "
        "sequence\n",
        "stage3.py initialize_optimizer_states: largest_numel 262144000\n"),
    "litgpt-not-a-checkpoint-dir": (
        "--checkpoint_dir '/home/u/lit-gpt/checkpoints/stabilityai/stablelm-base-alpha-3b' is "
        "not a checkpoint directory.\nFind download instructions at https://github.com/"
        "Lightning-AI/lit-gpt/blob/main/tutorials\n",
        "Loading model '/home/u/checkpoints/stabilityai/stablelm-base-alpha-3b/lit_model.pth' "
        "with {'name': 'stablelm-base-alpha-3b'}\n"),
    "llamafactory-template-unknown": (
        "[rank2]: Traceback (most recent call last):\n[rank2]:   File \"llamafactory/data/"
        "template.py\", line 547, in get_template_and_fix_tokenizer\n[rank2]:     raise "
        "ValueError(f\"Template {data_args.template} does not exist.\")\n[rank2]: ValueError: "
        "Template qwen3 does not exist.\n",
        "[INFO|template.py:143] Using template qwen3; add <|im_end|> to stop words.\n"),
    "llamafactory-template-not-given": (
        TRACE + "  File \"src/llmtuner/data/template.py\", line 210, in "
        "get_template_and_fix_tokenizer\n    raise ValueError(\"Please specify which "
        "`template` to use.\")\nValueError: Please specify which `template` to use.\n",
        "llmtuner.data.template - Using template baichuan2 (specified with --template)\n"),
    "lora-adapter-other-base-model": (
        TRACE + "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n\t"
        "size mismatch for base_model.model.model.layers.17.self_attn.k_proj.lora_B.default."
        "weight: copying a param with shape torch.Size([512, 16]) from checkpoint, the shape "
        "in current model is torch.Size([1024, 16]).\n",
        "Loaded adapter base_model.model.model.layers.17.self_attn.k_proj.lora_B.default."
        "weight with shape torch.Size([512, 16])\n"),
    "datasets-json-column-type-changed": (
        TRACE + "  File \"pyarrow/_json.pyx\", line 258, in pyarrow._json.read_json\n"
        "pyarrow.lib.ArrowInvalid: JSON parse error: Column() changed from object to array "
        "in row 0\n",
        "Generating train split: 52002 examples [00:01, 41234.12 examples/s] (json: column "
        "conversations is a list)\n"),
    "collator-features-not-tensorable": (
        TRACE + "  File \"transformers/tokenization_utils_base.py\", line 747, in "
        "convert_to_tensors\n    raise ValueError(\nValueError: Unable to create tensor, you "
        "should probably activate truncation and/or padding with 'padding=True' "
        "'truncation=True' to have batched tensors with the same length. Perhaps your "
        "features (`input_ids` in this case) have excessive nesting (inputs type `list` where "
        "type `int` is expected).\n",
        "DataCollatorWithPadding: padding=True, truncation=True; batched tensors of length "
        "512\n"),
    "cache-dir-not-shared": (
        TRACE + "  File \"swift/utils/torch_utils.py\", line 390, in check_shared_disk\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/packing_share/check_"
        "shared_disk.tmp'\n",
        "[INFO:swift] packing_cache: /tmp/packing_share (check_shared_disk.tmp written)\n"),
    "dataset-cache-missing-on-other-node": (
        TRACE + "FileNotFoundError: [Errno 2] Failed to open local file '/home/u/.cache/"
        "huggingface/datasets/json/finetune-3d2c/0.0.0/e347/cache-66a5cd42fef01eaa_00000_of_"
        "00032.arrow'. Detail: [errno 2] No such file or directory\n",
        "Loading cached processed dataset at /home/u/.cache/huggingface/datasets/json/"
        "finetune-3d2c/0.0.0/e347/cache-66a5cd42fef01eaa_00000_of_00032.arrow\n"),
    "llamafactory-processor-not-found": (
        TRACE + "  File \"src/llamafactory/data/mm_plugin.py\", line 170, in _validate_input\n"
        "    raise ValueError(\"Processor was not found, please check and update your model "
        "file.\")\nValueError: Processor was not found, please check and update your model "
        "file.\n",
        "[INFO|processing_utils.py] Processor Qwen2VLProcessor loaded from the model file\n"),
    "gloo-mixed-ip-family": (
        "[rank0]: RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/"
        "device.cc:276] ss1.ss_family == ss2.ss_family. 2 vs 10\n",
        "gloo: using address family 2 on eth0\n"),
    "efa-libfabric-memreg-bug": (
        "ip-10-1-2-3:4242:4301 [4] register_rail_mr_buffer:617 NCCL WARN NET/OFI Unable to "
        "register memory (type = 2) for device 4. RC: -22, Error: Invalid argument\n",
        "NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 4 nics)\n"),
    "nvcc-arch-unsupported": (
        "nvcc fatal   : Unsupported gpu architecture 'compute_70'\n",
        "nvcc: NVIDIA (R) Cuda compiler driver, building for compute_90\n"),
    "output-dir-missing": (
        "Traceback (most recent call last):\n  File \"multiproc.py\", line 15, in <module>\n"
        "    stdout = None if i == 0 else open(\"logs/{}_GPU_{}.log\".format(job_id, i), \"w\")\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'logs/run_GPU_1.log'\n",
        "rank 1: writing logs/run_GPU_1.log (open(path, 'w'))\n"),
    "extension-abi-mismatch": (
        TRACE + "    import flash_attn_2_cuda as flash_attn_cuda\nImportError: /venv/lib/"
        "python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined "
        "symbol: _ZN3c104cuda9SetDeviceEi\n",
        # torch_geometric/typing.py warns with the lookup's words and trains without it
        "/venv/lib/python3.10/site-packages/torch_geometric/typing.py:86: UserWarning: An issue "
        "occurred while importing 'torch-sparse'. Disabling its usage. Stacktrace: No such "
        "operator torch_sparse::cuda_version\n  warnings.warn(f\"An issue occurred while "
        "importing 'torch-sparse'. \"\nEpoch: 001, Loss: 1.9420, Train: 0.2929, Val: 0.2980\n"
        "Epoch: 002, Loss: 1.8150, Train: 0.5143, Val: 0.4940\n"),
    "libstdcxx-too-old": (
        TRACE + "    import cpu_adam\nImportError: /opt/conda/lib/libstdc++.so.6: version "
        "`GLIBCXX_3.4.30' not found (required by /root/.cache/torch_extensions/cpu_adam.so)\n",
        "GLIBCXX_3.4.30 found in /usr/lib/x86_64-linux-gnu/libstdc++.so.6\n"),
    "deepspeed-prepare-no-dataloader": (
        TRACE + "    model, optimizer = accelerator.prepare(model, optimizer)\nValueError: When "
        "using DeepSpeed `accelerate.prepare()` requires you to pass at least one of training "
        "or evaluation dataloaders or alternatively set an integer value in "
        "`train_micro_batch_size_per_gpu` in the deepspeed config file\n",
        "accelerate.prepare() got the training dataloader; DeepSpeed micro-batch 8\n"),
    "cuda-toolkit-mismatch": (
        TRACE + "    raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, "
        "torch.version.cuda))\nRuntimeError:\nThe detected CUDA version (12.4) mismatches "
        "the version that was used to compile\nPyTorch (11.8). Please make sure to use the "
        "same CUDA versions.\n",
        "Installed CUDA version 12.1 matches the version torch was compiled with\n"),
    "nccl-exit-abort": (
        "[exiting program at iteration 1000]\nterminate called after throwing an instance of "
        "'c10::CUDAError'\n  what():  CUDA error: driver shutting down\nframe #3: "
        "c10d::ProcessGroupNCCL::workCleanupLoop() + 0x11d\n",
        "driver 535.104.05 up; shutting down the data loader workers\n"),
    # the messages below are nvidia-smi's, the CUDA runtime's (cudaGetErrorString),
    # cuBLAS/cuDNN's status names, torch's own (reducer.cpp, serialization.py,
    # inline_container.cc), NumPy's, huggingface_hub's and gloo's tcp/pair.cc, as they print them
    "driver-library-mismatch": (
        "$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n"
        "NVML library version: 550.127\n",
        "NVML initialized: driver 550.127.05, library 550.127.05\n"),
    "fabric-manager-not-running": (
        TRACE + "    torch.cuda.set_device(local_rank)\n  File \"/usr/local/lib/python3.10/"
        "dist-packages/torch/cuda/__init__.py\", line 302, in _lazy_init\n    "
        "torch._C._cuda_init()\nRuntimeError: Unexpected error from cudaGetDeviceCount(). Did "
        "you run some cuda functions before calling NumCudaDevices() that might have already "
        "set an error? Error 802: system not yet initialized\n",
        "nvidia-fabricmanager: fabric state: initialized; system initialized\n"),
    "gpu-busy": (
        TRACE + "    model = model.to(device)\nRuntimeError: CUDA error: CUDA-capable device(s) "
        "is/are busy or unavailable\nCUDA kernel errors might be asynchronously reported at "
        "some other API call, so the stacktrace below might be incorrect.\n",
        "GPU 0 was busy for 20 ms with data loading; devices available: 8\n"),
    "cuda-library-init": (
        TRACE + "    loss = model(x).sum()\n  File \"/venv/lib/python3.10/site-packages/torch/nn/"
        "modules/linear.py\", line 116, in forward\n    return F.linear(input, self.weight, "
        "self.bias)\nRuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling "
        "`cublasCreate(handle)`\n",
        "cuBLAS handle created; cuDNN 9.1 initialized (benchmark mode)\n"),
    "ddp-static-graph": (
        TRACE + "    loss.backward()\nRuntimeError: Expected to have finished reduction in the "
        "prior iteration before starting a new one. This error indicates that your training "
        "graph has changed in this iteration, e.g., one parameter is used in first iteration, "
        "but then got unused in the second iteration. this is not compatible with static_graph "
        "set to True.\nParameter indices which did not receive grad for rank 1: 125 126\n",
        "DDP: static_graph=True, graph unchanged over 1000 iterations\n"),
    "autograd-graph-freed": (
        TRACE + "    loss.backward()\nRuntimeError: Trying to backward through the graph a "
        "second time (or directly access saved tensors after they have already been freed). "
        "Saved intermediate values of the graph are freed when you call .backward() or "
        "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a "
        "second time or if you need to access saved tensors after calling backward.\n",
        "hidden state detached; backward through the graph of this step only\n"),
    "checkpoint-corrupt": (
        TRACE + "    state = torch.load(args.resume, map_location='cpu')\n  File \"/venv/lib/"
        "python3.10/site-packages/torch/serialization.py\", line 1004, in load\n    with "
        "_open_zip_file_reader(opened_file) as opened_zipfile:\n  File \"/venv/lib/python3.10/"
        "site-packages/torch/serialization.py\", line 456, in __init__\n    super().__init__("
        "torch._C.PyTorchFileReader(name_or_buffer))\nRuntimeError: PytorchStreamReader failed "
        "reading zip archive: failed finding central directory\n",
        "checkpoint checkpoints/last.pt read: zip archive with 312 records, central directory "
        "found\n"),
    "torch-load-weights-only": (
        TRACE + "    ckpt = torch.load(path, map_location='cpu')\n_pickle.UnpicklingError: "
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, do those steps only if you trust the source of the checkpoint.\n\t(1) In "
        "PyTorch 2.6, we changed the default value of the `weights_only` argument in "
        "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set "
        "to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
        "only if you got the file from a trusted source.\n\t(2) Alternatively, to load with "
        "`weights_only=True` please check the recommended steps in the following error message."
        "\n\tWeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an "
        "allowed global by default.\n",
        "torch.load(path, weights_only=True): 212 tensors loaded\n"),
    "numpy-abi": (
        "\nA module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.3 as it may "
        "crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with "
        "NumPy 2.0.\nSome module may need to rebuild instead e.g. with 'pybind11>=2.12'.\n"
        + TRACE + "    import cv2\nImportError: numpy.core.multiarray failed to import\n",
        "numpy 2.1.3 and opencv 4.10 compiled against NumPy 2.0: imported\n"),
    "model-hub-unreachable": (
        TRACE + "    model = AutoModelForCausalLM.from_pretrained(args.model)\nOSError: We "
        "couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in "
        "the cached files and it looks like meta-llama/Llama-3.1-8B is not the path to a "
        "directory containing a file named config.json.\nCheckout your internet connection or "
        "see how to run the library in offline mode at 'https://huggingface.co/docs/"
        "transformers/installation#offline-mode'.\n",
        "Loading meta-llama/Llama-3.1-8B from the cache (HF_HUB_OFFLINE=1): config.json found\n"),
    "model-hub-gated": (
        TRACE + "    tokenizer = AutoTokenizer.from_pretrained(args.model)\nOSError: You are "
        "trying to access a gated repo.\nMake sure to have access to it at "
        "https://huggingface.co/meta-llama/Llama-2-7b-hf.\n401 Client Error. (Request ID: "
        "Root=1-65a1b2c3)\n\nCannot access gated repo for url https://huggingface.co/"
        "meta-llama/Llama-2-7b-hf/resolve/main/config.json.\n",
        "access to meta-llama/Llama-2-7b-hf granted; token of the account read from HF_TOKEN\n"),
    "extension-without-cuda": (
        TRACE + "    out = xops.memory_efficient_attention(q, k, v)\nNotImplementedError: Could "
        "not run 'xformers::efficient_attention_forward_cutlass' with arguments from the 'CUDA' "
        "backend. This could be because the operator doesn't exist for this backend, or was "
        "omitted during the selective/custom build process (if using custom build).\n",
        "xformers::efficient_attention_forward_cutlass registered for the CUDA backend\n"),
    # from the sources of NCCL (nvls.cc, ibvwrap.cc), torch (ProcessGroupGloo.cpp,
    # distributed_c10d.py, fsdp), transformers, accelerate, DeepSpeed, vLLM, Lightning and
    # Slurm, as those print them
    "nccl-memlock": (
        "node3:1841:1907 [0] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error "
        "Cannot allocate memory\nnode3:1841:1907 [0] NCCL INFO transport/net_ib.cc:1107 -> 2\n"
        + TRACE + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n",
        "node3:1841:1907 [0] NCCL INFO NET/IB : memory registered with ibv_reg_mr (memlock "
        "unlimited)\n"),
    "nccl-nvls": (
        "gpu-h100-07:2214:2391 [3] transport/nvls.cc:165 NCCL WARN Cuda failure 'invalid "
        "argument'\ngpu-h100-07:2214:2391 [3] NCCL INFO transport/nvls.cc:290 -> 1\n" + TRACE
        + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
        "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n",
        "gpu-h100-07:2214:2391 [3] NCCL INFO NVLS multicast support is available on dev 3\n"),
    "gloo-full-mesh": (
        TRACE + "    dist.init_process_group('gloo')\nRuntimeError: Gloo connectFullMesh failed "
        "with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error\n",
        "Gloo: full mesh connected on eth0 (GLOO_SOCKET_IFNAME)\n"),
    "process-group-initialized-twice": (
        TRACE + "    dist.init_process_group(backend='nccl')\n  File \"/venv/lib/python3.10/site-"
        "packages/torch/distributed/c10d_logger.py\", line 79, in wrapper\nValueError: trying "
        "to initialize the default process group twice!\n",
        "the default process group is initialized once, by mmcv's init_dist\n"),
    "device-map-with-ddp": (
        TRACE + "    model = accelerator.prepare(model)\nValueError: You can't train a model "
        "that has been loaded with `device_map='auto'` in any distributed mode. Please rerun "
        "your script specifying `--num_processes=1` or by launching with `python "
        "{{myscript.py}}`.\n",
        "model loaded with device_map={'': 1} on rank 1 (one copy per process)\n"),
    "zero3-device-map": (
        TRACE + "    model = AutoModelForCausalLM.from_pretrained(path, device_map='auto')\n"
        "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with "
        "passing a `device_map`.\n",
        "DeepSpeed ZeRO-3: zero.Init partitioned 7241M parameters while loading\n"),
    "sharded-param-outside-engine": (
        TRACE + "    ref_logits = ref_model(input_ids).logits\n  File \"/venv/lib/python3.10/site-"
        "packages/torch/nn/functional.py\", line 2264, in embedding\n    return "
        "torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\nRuntimeError: "
        "'weight' must be 2-D\n",
        "ref_model prepared by deepspeed.initialize: embedding weight gathered (2-D)\n"),
    "fsdp-wrap-class-missing": (
        TRACE + "    model = accelerator.prepare(model)\nException: Could not find the "
        "transformer layer class to wrap in the model.\n",
        "FSDP auto-wrap: LlamaDecoderLayer found in the model, 32 units wrapped\n"),
    "fsdp-mixed-dtype": (
        TRACE + "    model = FSDP(model, auto_wrap_policy=policy)\nValueError: Must flatten "
        "tensors with uniform dtype but got torch.bfloat16 and torch.float32\n",
        "FSDP: flattened 291 tensors with uniform dtype torch.bfloat16\n"),
    "fsdp-device-id": (
        TRACE + "    model = FSDP(model, device_id=local_rank)\nValueError: Inconsistent "
        "compute device and `device_id` on rank 1: cuda:0 vs cuda:1\n",
        "FSDP: compute device cuda:1 is device_id 1 on rank 1\n"),
    "cuda-home-missing": (
        TRACE + "    import deepspeed\ndeepspeed.ops.op_builder.builder.MissingCUDAException: "
        "CUDA_HOME does not exist, unable to compile CUDA op(s)\n",
        "CUDA_HOME=/usr/local/cuda-12.4: fused_adam compiled\n"),
    "deepspeed-hostfile-ssh": (
        "subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no gpu-0011 "
        "hostname' returned non-zero exit status 255.\n" + TRACE + "RuntimeError: Using "
        "hostfile at /home/u/hostfile but host=gpu-0011 was not reachable via ssh. If you are "
        "running with a single node please remove /home/u/hostfile or setup passwordless ssh.\n",
        "host=gpu-0011 reachable via ssh (passwordless), 8 slots\n"),
    "vllm-kv-cache-memory": (
        TRACE + "    llm = LLM(model=args.model, tensor_parallel_size=2)\nValueError: No "
        "available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
        "initializing the engine.\n",
        "# GPU blocks: 7281, # CPU blocks: 2048; maximum concurrency for 4096 tokens: 28.4x\n"),
    "ray-not-enough-gpus": (
        TRACE + "    engine = LLMEngine.from_engine_args(engine_args)\nValueError: The number "
        "of required GPUs exceeds the total number of available GPUs in the placement group.\n",
        "Ray cluster: 16 GPUs available; 8 required by tensor parallel size 8\n"),
    "container-lost-gpus": (
        "$ nvidia-smi\nFailed to initialize NVML: Unknown Error\n",
        "NVML initialized; 8 GPUs visible in the container\n"),
    "gpu-display-watchdog": (
        TRACE + "    loss.backward()\nRuntimeError: CUDA error: the launch timed out and was "
        "terminated\n",
        "kernel launch timing: 12.1 ms per step (no watchdog on this GPU)\n"),
    "slurm-node-config": (
        "srun: error: Unable to create step for job 17627941: Requested node configuration is "
        "not available\n",
        "srun: node configuration: 64 CPUs, 8 GPUs per node, as requested\n"),
    "lightning-interactive-ddp": (
        TRACE + "    trainer = Trainer(accelerator='gpu', devices=2, strategy='ddp')\nlightning."
        "fabric.utilities.exceptions.MisconfigurationException: `Trainer(strategy='ddp')` is not "
        "compatible with an interactive environment. Run your code as a script, or choose a "
        "notebook-compatible strategy: `Trainer(strategy='ddp_notebook')`.\n",
        "Trainer(strategy='ddp') started from a script: 2 processes\n"),
    "flash-attn-gpu-too-old": (
        TRACE + "    out = flash_attn_func(q, k, v, causal=True)\nRuntimeError: FlashAttention "
        "only supports Ampere GPUs or newer.\n",
        "FlashAttention: sm_90 GPU, flash-attn 2.6.3 kernels loaded\n"),
    "triton-gpu-too-old": (
        TRACE + "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "RuntimeError: Found Tesla P100-PCIE-16GB which is too old to be supported by the "
        "triton GPU compiler, which is used as the backend. Triton only supports devices of "
        "CUDA Capability >= 7.0, but your device is of CUDA capability 6.0\n",
        "inductor: Triton backend for NVIDIA A10G (capability 8.6)\n"),
    "no-c-compiler": (
        TRACE + "torch._inductor.exc.InductorError: InvalidCxxCompiler: No working C++ "
        "compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')\n",
        "inductor: C++ compiler g++ 12.2 found\n"),
    "checkpoint-device-missing": (
        TRACE + "    sd = torch.load(args.resume)\nRuntimeError: Attempting to deserialize "
        "object on CUDA device 3 but torch.cuda.device_count() is 1. Please use torch.load with "
        "map_location to map your storages to an existing device.\n",
        "checkpoint loaded with map_location=cuda:0 on every rank\n"),
    "zero-checkpoint-world-size": (
        TRACE + "deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being "
        "loaded used a DP world size of 8 but the current world size is 16. Automatic "
        "adjustment of ZeRO's optimizer state partitioning with a new world size is not "
        "currently supported.\n",
        "[deepspeed] loading ZeRO checkpoint written by 8 ranks into 8 ranks\n"),
    "fsdp-quantized-int": (
        TRACE + "    model = accelerator.prepare(model)\nValueError: Cannot flatten integer "
        "dtype tensors\n",
        "FSDP: 4-bit weights stored as torch.bfloat16 (bnb_4bit_quant_storage), flattened\n"),
    "accelerate-deepspeed-multi-model": (
        TRACE + "    teacher = accelerator.prepare(teacher)\nAssertionError: You can't use same "
        "`Accelerator()` instance with multiple models when using DeepSpeed\n",
        "accelerate: one DeepSpeed plugin per model (student, teacher)\n"),
    "grad-scaler-no-grads": (
        TRACE + "    scaler.step(optimizer)\nAssertionError: No inf checks were recorded for "
        "this optimizer.\n",
        "GradScaler: inf checks recorded for 2 optimizers\n"),
    "device-mesh-too-big": (
        TRACE + "    mesh = init_device_mesh('cuda', (2, 4))\nRuntimeError: Mesh should not be "
        "bigger than default world size 4, but found 8 ranks!\n",
        "device mesh (2, 4) over the default world size 8\n"),
    "sampler-generator-device": (
        TRACE + "    for batch in loader:\nRuntimeError: Expected a 'cuda' device type for "
        "generator but found 'cpu'\n",
        "sampler generator on cpu, tensors moved to cuda:0 in the loop\n"),
    "setuptools-pkg-resources": (
        TRACE + "    from pkg_resources import packaging\nImportError: cannot import name "
        "'packaging' from 'pkg_resources' (/venv/lib/python3.10/site-packages/pkg_resources/"
        "__init__.py)\n",
        "setuptools 69.5.1: pkg_resources.packaging available\n"),
    # apex amp given a model already wrapped; wrapping after it
    "apex-amp-after-parallel-wrapper": (
        TRACE + "RuntimeError: Incoming model is an instance of torch.nn.parallel.Distributed"
        "DataParallel. Parallel wrappers should only be applied to the model(s) AFTER \n the "
        "model(s) have been returned from amp.initialize.\n",
        "Selected optimization level O1; wrapping the model in DistributedDataParallel after "
        "amp.initialize\n"),
    # the ranks at the extensions root, then the others' timeout waiting; a build that loaded
    "torch-extension-stale-lock": (
        "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n" * 2
        + "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. "
        "2/4 clients joined.\n",
        "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n"
        "Loading extension module fused_adam...\nTime to load fused_adam op: 0.51 seconds\n"),
    # a micro-batch's output kept past the next compiled call; a step marked first
    "cudagraph-output-overwritten": (
        TRACE + "RuntimeError: Error: accessing tensor output of CUDAGraphs that has been "
        "overwritten by a subsequent run. Stack trace: File \"train.py\", line 40, in forward\n",
        "skipping cudagraphs due to mutated inputs (1 instances). Found from : File "
        "\"train.py\", line 40, in forward\nUnable to hit fast path of CUDAGraphs because of "
        "pending, uninvoked backwards. Consider running with torch.no_grad()\n"),
    # torchrun's option after the script's path; a run that printed its own arguments
    "script-argument-unrecognized": (
        "usage: train.py [-h] [--epochs EPOCHS]\ntrain.py: error: unrecognized arguments: "
        "--nproc_per_node 2\n",
        "usage: train.py [-h] [--epochs EPOCHS]\n\noptions:\n  -h, --help  show this help "
        "message and exit\n  --epochs EPOCHS\n"),
    "apex-without-extensions": (
        TRACE + "    import amp_C\nModuleNotFoundError: No module named 'amp_C'\n",
        "apex built with --cpp_ext --cuda_ext: amp_C imported\n"),
    "flash-attn-not-installed": (
        TRACE + "    model = AutoModelForCausalLM.from_pretrained(path, attn_implementation="
        "'flash_attention_2')\nImportError: FlashAttention2 has been toggled on, but it cannot "
        "be used due to the following error: the package flash_attn seems to be not installed. "
        "Please refer to the documentation of https://huggingface.co/docs/transformers/"
        "perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.\n",
        "attention implementation: flash_attention_2 (flash-attn 2.6.3)\n"),
    "mpi-backend-missing": (
        TRACE + "    dist.init_process_group(backend='mpi')\nRuntimeError: Distributed package "
        "doesn't have MPI built in. MPI is only included if you build PyTorch from source on a "
        "host that has MPI installed.\n",
        "backend nccl; started by mpirun with RANK from OMPI_COMM_WORLD_RANK\n"),
    "vllm-ray-driver-no-gpu": (
        TRACE + "ValueError: Ray does not allocate any GPUs on the driver node. Consider "
        "adjusting the Ray placement group or running the driver on a GPU node.\n",
        "Ray: driver node 10.0.0.4 has 8 GPUs in the placement group\n"),
    "container-toolkit-missing": (
        "$ docker run --gpus all -it pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime\ndocker: "
        "Error response from daemon: could not select device driver \"\" with capabilities: "
        "[[gpu]].\n",
        "docker: device driver nvidia selected with capabilities [[gpu]]\n"),
    "container-cuda-too-new": (
        "docker: Error response from daemon: failed to create task for container: failed to "
        "create shim task: OCI runtime create failed: runc create failed: unable to start "
        "container process: error during container init: error running hook #0: error running "
        "hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please "
        "update your driver to a newer version, or use an earlier cuda container: unknown.\n",
        "nvidia-container-cli: requirement satisfied: cuda>=12.4 (driver supports 12.6)\n"),
    "embedding-index-out-of-range": (
        "../aten/src/ATen/native/cuda/Indexing.cu:1236: indexSelectSmallIndex: block: [18,0,0], "
        "thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n" + TRACE
        + "RuntimeError: CUDA error: device-side assert triggered\n",
        "embedding: 32002 rows after resize_token_embeddings; max input id 32001\n"),
    "dtype-mismatch": (
        TRACE + "    out = self.conv(x)\nRuntimeError: Input type (torch.cuda.HalfTensor) and "
        "weight type (torch.cuda.FloatTensor) should be the same\n",
        "input dtype torch.float16 and weight dtype torch.float16 under autocast\n"),
    "ddp-models-differ": (
        TRACE + "    model = DDP(model, device_ids=[local_rank])\nRuntimeError: DDP expects same "
        "model across all ranks, but Rank 0 has 128 params, while rank 1 has inconsistent 0 "
        "params.\n",
        "DDP: 128 parameters on every rank, verified across ranks\n"),
    "dataparallel-device": (
        TRACE + "    out = model(x)\nRuntimeError: module must have its parameters and buffers on "
        "device cuda:0 (device_ids[0]) but found one of them on device: cpu\n",
        "DataParallel over device_ids [0, 1]; module on cuda:0\n"),
    "batchnorm-batch-of-one": (
        TRACE + "    out = self.bn(x)\nValueError: Expected more than 1 value per channel when "
        "training, got input size torch.Size([1, 256, 1, 1])\n",
        "BatchNorm2d(256): batches of 16 per GPU, drop_last=True\n"),
    "grad-scaler-bf16": (
        TRACE + "    scaler.step(optimizer)\nRuntimeError: \"_amp_foreach_non_finite_check_and_"
        "unscale_cuda\" not implemented for 'BFloat16'\n",
        "mixed precision bf16: no GradScaler\n"),
    "dataset-empty": (
        TRACE + "    loader = DataLoader(ds, shuffle=True)\nValueError: num_samples should be a "
        "positive integer value, but got num_samples=0\n",
        "dataset: num_samples=51200 on every rank\n"),
    "torch-too-old-for-api": (
        TRACE + "    from torch.distributed.fsdp import fully_shard\nImportError: cannot import "
        "name 'fully_shard' from 'torch.distributed.fsdp' (/venv/lib/python3.10/site-packages/"
        "torch/distributed/fsdp/__init__.py)\n",
        "torch 2.6: fully_shard imported from torch.distributed.fsdp\n"),
    "spawn-main-guard": (
        TRACE + "RuntimeError: \n        An attempt has been made to start a new process before "
        "the\n        current process has finished its bootstrapping phase.\n",
        "entry point guarded by if __name__ == '__main__'; workers started\n"),
    "wandb-no-key": (
        TRACE + "wandb.errors.UsageError: api_key not configured (no-tty). call "
        "wandb.login(key=[your_api_key])\n",
        "wandb: logged in with WANDB_API_KEY (no tty needed)\n"),
    "disk-quota": (
        TRACE + "    torch.save(state, path)\nOSError: [Errno 122] Disk quota exceeded\n",
        "quota: 41G of 100G used in /home; no quota exceeded\n"),
    "read-only-path": (
        TRACE + "    os.makedirs(cache_dir, exist_ok=True)\nPermissionError: [Errno 13] "
        "Permission denied: '/.cache'\n",
        "HF_HOME=/data/hf (writable); cache at /data/hf\n"),
    "hostname-loopback": (
        TRACE + "    dist.init_process_group('gloo')\nRuntimeError: [../third_party/gloo/gloo/"
        "transport/tcp/pair.cc:799] connect [127.0.1.1]:25715: Connection refused\n",
        "/etc/hosts: 127.0.1.1 node1 replaced by 10.0.0.5 node1; GLOO_SOCKET_IFNAME=eth0\n"),
    "lightning-torchrun-world-size": (
        TRACE + "ValueError: You set `devices=2` and `num_nodes=1` in Lightning, but the product (2 * "
        "1) does not match the world size (8).\n",
        "torchrun --nproc-per-node 2 --nnodes 1 train.py: Trainer(devices=2, num_nodes=1) "
        "matches the world size (2)\n"),
    "fsdp-optimizer-before-wrap": (
        TRACE + "ValueError: The optimizer does not seem to reference any FSDP parameters. HINT: Make "
        "sure to create the optimizer after setting up the model by referencing "
        "`self.trainer.model.parameters()` in the `configure_optimizers()` hook.\n",
        "configure_optimizers: AdamW over self.trainer.model.parameters() (FSDP parameters)\n"),
    "fsdp2-prepare-model-and-optimizer": (
        TRACE + "ValueError: When using FSDP2, a model and optimizer must be passed together to "
        "`Accelerator.prepare()` as the optimizer needs to have its parameters modified after "
        "the model is converted.\n",
        "model, optimizer = accelerator.prepare(model, optimizer)  # FSDP2, both together\n"),
    "fsdp2-tied-embeddings": (
        TRACE + "ValueError: FSDP2 mapping failed (missing: ['lm_head.weight']). This is likely due to "
        "tied embeddings (config has tie_word_embeddings=True but checkpoint has separate "
        "weights).\n",
        "tie_word_embeddings=False; FSDP2 mapping of 291 parameters done\n"),
    "fsdp2-reshard-strategy-name": (
        TRACE + "ValueError: invalid truth value full_shard\n",
        "fsdp_sharding_strategy: FULL_SHARD (fsdp_version: 1)\n"),
    "zero3-16bit-save-disabled": (
        TRACE + "ValueError: Cannot get 16bit model weights because "
        "`stage3_gather_16bit_weights_on_model_save` in DeepSpeed config is False.\n",
        "stage3_gather_16bit_weights_on_model_save: true; saved 16bit model weights\n"),
    "lightning-loader-reinstantiation": (
        TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: Trying to inject "
        "custom `Sampler` into the `BucketDataLoader` instance. This would fail as some of the "
        "`__init__` arguments are not available as instance attributes.\n",
        "Injected DistributedSampler into BucketDataLoader (use_distributed_sampler=True)\n"),
    "rank-dataloader-empty": (
        TRACE + "RuntimeError: `DataLoader` within local rank has zero length. Please make sure that "
        "it returns at least 1 batch.\n",
        "UserWarning: Total length of `DataLoader` across ranks is zero. Please make sure this "
        "was your intention.\n"),
    "lightning-foreign-launcher": (
        TRACE + "RuntimeError: Lightning attempted to launch new distributed processes with "
        "`local_rank > 0`. This should not happen.\n",
        "LOCAL_RANK=1 set by torchrun (TORCHELASTIC_RUN_ID present): Lightning joins its processes\n"),
    "lightning-weights-only-resume": (
        TRACE + "KeyError: 'Trying to restore optimizer state but checkpoint contains only the model. "
        "This is probably due to `ModelCheckpoint.save_weights_only` being set to `True`.'\n",
        "ModelCheckpoint(save_weights_only=True): saved weights to last.ckpt\n"),
    "lightning-resume-past-max-epochs": (
        TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: You restored a "
        "checkpoint with current_epoch=20, but you have set Trainer(max_epochs=10).\n",
        "`Trainer.fit` stopped: `max_epochs=10` reached.\n"),
    "trainer-iterable-needs-max-steps": (
        TRACE + "ValueError: train_dataset does not implement __len__, max_steps has to be specified\n",
        "max_steps is given, it will override any value given in num_train_epochs\n"),
    "accelerate-dispatch-uneven-batches": (
        TRACE + "RuntimeError: You can't use batches of different size with `dispatch_batches=True` or "
        "when using an `IterableDataset`.either pass `dispatch_batches=False` and have each "
        "process fetch its own batch  or pass `split_batches=True`.\n",
        "DataLoaderConfiguration(dispatch_batches=False): each process fetches its own batch\n"),
    "trainer-fsdp-checkpoint-without-fsdp": (
        TRACE + "ValueError: Checkpoint found at /out/checkpoint-1500 is only supported when using "
        "PyTorch FSDP\n",
        "Loading FSDP checkpoint from /out/checkpoint-1500 (fsdp: full_shard auto_wrap)\n"),
    "deepspeed-device-indices": (
        TRACE + "RuntimeError: The selected device indices [2, 3] don't match the local rank values of "
        "processes. If you need to select GPUs at a specific index, set the "
        "`CUDA_VISIBLE_DEVICES` environment variable instead.\n",
        "CUDA_VISIBLE_DEVICES=2,3 with devices=2: local ranks 0 and 1\n"),
    "trainer-no-model-columns": (
        TRACE + "ValueError: No columns in the dataset match the model's forward method signature: "
        "(input_ids, attention_mask, labels). The following columns have been ignored: "
        "[text].\n",
        "The following columns in the Training set don't have a corresponding argument in "
        "`LlamaForCausalLM.forward` and have been ignored: text.\n"),
    "trainer-model-no-loss": (
        TRACE + "ValueError: The model did not return a loss from the inputs, only the following keys: "
        "logits. For reference, the inputs it received are input_ids,attention_mask.\n",
        "{'loss': 2.3141, 'grad_norm': 1.02, 'learning_rate': 2e-05, 'epoch': 0.1}\n"),
    "lightning-monitor-key-missing": (
        TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: "
        "`ModelCheckpoint(monitor='val_loss')` could not find the monitored key in the "
        "returned metrics: ['train_loss', 'epoch', 'step'].\n",
        "model_checkpoint.py:588: `ModelCheckpoint(monitor='val_loss')` could not find the "
        "monitored key in the returned metrics: ['train_loss', 'epoch', 'step'].\n"),
    "trainer-best-metric-missing": (
        TRACE + "KeyError: \"The `metric_for_best_model` training argument is set to "
        "'eval_accuracy', which is not found in the evaluation metrics. The available "
        "evaluation metrics are: ['eval_loss', 'eval_runtime', 'epoch']. Consider changing the "
        "`metric_for_best_model` via the TrainingArguments.\"\n",
        "metric_for_best_model: eval_accuracy (greater_is_better: true)\n"),
    "trainer-best-model-save-eval-mismatch": (
        TRACE + "ValueError: --load_best_model_at_end requires the save and eval strategy to "
        "match, but found\n- Evaluation strategy: IntervalStrategy.EPOCH\n- Save strategy: "
        "SaveStrategy.STEPS\n",
        "load_best_model_at_end: true, save_strategy: steps, eval_strategy: steps\n"),
    "trainer-eval-dataset-missing": (
        TRACE + "ValueError: You have set `args.eval_strategy` to IntervalStrategy.STEPS but you "
        "didn't pass an `eval_dataset` to `Trainer`. Either set `args.eval_strategy` to `no` "
        "or pass an `eval_dataset`.\n",
        "eval_strategy: steps; eval_dataset: 2000 examples\n"),
    "tokenizer-no-pad-token": (
        TRACE + "ValueError: Asking to pad but the tokenizer does not have a padding token. "
        "Please select a token to use as `pad_token` `(tokenizer.pad_token = "
        "tokenizer.eos_token e.g.)` or add a new pad token via "
        "`tokenizer.add_special_tokens({'pad_token': '[PAD]'})`.\n",
        "Setting `pad_token_id` to `eos_token_id`:2 for open-end generation.\n"),
    "collator-labels-not-padded": (
        TRACE + "ValueError: Unable to create tensor, you should probably activate truncation "
        "and/or padding with 'padding=True' 'truncation=True' to have batched tensors with the "
        "same length. Perhaps your features (`labels` in this case) have excessive nesting "
        "(inputs type `list` where type `int` is expected).\n",
        "padding=True truncation=True: labels padded with -100\n"),
    "lightning-package-mix": (
        TRACE + "TypeError: `model` must be a `LightningModule` or "
        "`torch._dynamo.OptimizedModule`, got `LitModel`\n",
        "LitModel is a LightningModule (lightning.pytorch 2.6.0)\n"),
    "lightning-plateau-no-monitor": (
        TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: "
        "`configure_optimizers` must include a monitor when a `ReduceLROnPlateau` scheduler is "
        "used. For example: {\"optimizer\": optimizer, \"lr_scheduler\": scheduler, "
        "\"monitor\": \"metric_to_track\"}\n",
        "lr_scheduler: ReduceLROnPlateau (monitor: val_loss)\n"),
    "lightning-training-step-none-distributed": (
        TRACE + "[rank1]: RuntimeError: Skipping the `training_step` by returning None in "
        "distributed training is not supported. It is recommended that you rewrite your "
        "training logic to avoid having to skip the step in the first place.\n",
        "training_step returned a loss on every rank (skipped 0 batches)\n"),
    "lightning-training-step-no-loss": (
        TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: In "
        "automatic_optimization, when `training_step` returns a dict, the 'loss' key needs to "
        "be present\n",
        "training_step returns {'loss': loss, 'acc': acc}\n"),
    "accelerate-load-state-model-count": (
        TRACE + '  File "/opt/conda/lib/python3.11/site-packages/accelerate/checkpointing.py", '
        "line 247, in load_accelerator_state\n    state_dict = load(input_model_file, "
        "device=str(map_location))\nFileNotFoundError: [Errno 2] No such file or directory: "
        "'/data/ckpt/step_1000/pytorch_model_1.bin'\n",
        "Saving model 1 to /data/ckpt/step_1000/pytorch_model_1.bin\n"),
    "accelerate-split-batches-size": (
        TRACE + "ValueError: To use a `DataLoader` in `split_batches` mode, the batch size (5) "
        "needs to be a round multiple of the number of processes (2).\n",
        "split_batches: true, batch size 8 over 2 processes\n"),
    "accelerate-gather-non-tensor": (
        TRACE + "TypeError: Unsupported types (<class 'str'>) passed to `_gpu_gather_one`. Only "
        "nested list/tuple/dicts of objects that are valid for `is_torch_tensor` should be "
        "passed.\n",
        "gather_object: 512 strings from 2 processes\n"),
    "lightning-cpu-devices-not-int": (
        TRACE + "TypeError: `devices` selected with `CPUAccelerator` should be an int > 0.\n",
        "devices selected with CPUAccelerator: 2\n"),
    "backward-non-scalar": (
        TRACE + "RuntimeError: grad can be implicitly created only for scalar outputs\n",
        "loss is a scalar output (reduction='mean')\n"),
    "package-not-installed": (
        TRACE + "importlib.metadata.PackageNotFoundError: No package metadata was found for The "
        "'deepspeed>=0.9.3' distribution was not found and is required by this application. \n"
        "Try: `pip install deepspeed>=0.9.3`\n",
        "deepspeed 0.16.2 found; tensorboard 2.18 found\n"),
    "set-epoch-without-distributed-sampler": (
        TRACE + "AttributeError: 'RandomSampler' object has no attribute 'set_epoch'\n",
        "DistributedSampler.set_epoch(3): shuffling with seed 3\n"),
    "collective-root-not-in-group": (
        TRACE + "ValueError: Global rank 0 is not part of group <torch.distributed."
        "distributed_c10d.ProcessGroup object at 0x7fb0a3e25a70>\n",
        "group ranks [2, 3]: global rank 2 is group rank 0\n"),
    "grad-hook-changed-shape": (
        TRACE + "RuntimeError: hook '<lambda>' has changed the size of value\n",
        "registered hook 'clip_grad' on 12 parameters\n"),
    "zero-optimizer-state-not-consolidated": (
        TRACE + "RuntimeError: Optimizer state has not been consolidated on this rank. Please "
        "call `consolidate_state_dict(to=0)` on all ranks beforehand if you meant to save the "
        "global state.\n",
        "consolidated the optimizer state on rank 0; saving it\n"),
    "dtensor-placements-mesh-mismatch": (
        TRACE + "ValueError: `placements` must have the same length as `device_mesh.ndim`! Found "
        "placements length: 1, and device_mesh.ndim: 2.\n",
        "placements (Replicate(), Shard(dim=0)) on a 2-D device mesh\n"),
    "device-mesh-dim-name-unknown": (
        TRACE + "KeyError: \"Invalid mesh_dim_names ('tp',) specified. Valid mesh_dim_names are "
        "['dp'].\"\n",
        "mesh_dim_names ('dp', 'tp'), shape (4, 2)\n"),
    "dcp-load-from-file": (
        TRACE + "NotADirectoryError: [Errno 20] Not a directory: '/ckpt/model.pt/.metadata'\n",
        "wrote /ckpt/step_100/.metadata and 8 shards\n"),
    "optimizer-before-fully-shard": (
        TRACE + '  File "/opt/conda/lib/python3.11/site-packages/torch/distributed/checkpoint/'
        'state_dict.py", line 657, in _init_optim_state\n    fqn = fqn_pid_mapping[key]\n'
        "KeyError: 0\n",
        "optimizer state keys: 0..41 mapped to parameter names\n"),
    "torchrun-nnodes-invalid": (
        TRACE + '  File "/opt/conda/lib/python3.11/site-packages/torch/distributed/run.py", line '
        "754, in config_from_args\n    min_nodes, max_nodes = parse_min_max_nnodes(args.nnodes)\n"
        '  File "/opt/conda/lib/python3.11/site-packages/torch/distributed/run.py", line 696, '
        "in parse_min_max_nnodes\nValueError: invalid literal for int() with base 10: ''\n",
        "nnodes=1:4 (min_nodes 1, max_nodes 4)\n"),
    "pg-timeout-not-timedelta": (
        TRACE + "TypeError: Expected timeout argument to be of type datetime.timedelta, got "
        "1800\n",
        "process group timeout: datetime.timedelta(seconds=1800)\n"),
    "checkpoint-inputs-no-grad": (
        "/opt/conda/lib/python3.11/site-packages/torch/utils/checkpoint.py:238: UserWarning: "
        "None of the inputs have requires_grad=True. Gradients will be None\n"
        "  warnings.warn(\n" + TRACE + "RuntimeError: Expected to have finished reduction in "
        "the prior iteration before starting a new one. This error indicates that your module "
        "has parameters that were not used in producing loss.\n",
        "/opt/conda/lib/python3.11/site-packages/torch/utils/checkpoint.py:238: UserWarning: "
        "None of the inputs have requires_grad=True. Gradients will be None\n"
        "step 10 loss 0.31\nstep 20 loss 0.29\n"),
    "nccl-link-local-address": (
        "node-0:11172:11249 [3] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
        "fe80::20d:3aff:fef7:74b3%enP7906s1<51577> failed : Software caused connection abort\n"
        "node-0:11172:11249 [3] NCCL INFO misc/socket.cc:567 -> 2\n",
        "node-0:11172:11172 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.4<0> "
        "[1]enP7906s1:fe80::20d:3aff:fef7:74b3%enP7906s1<0>\n"
        "node-0:11172:11249 [0] NCCL INFO comm 0x5 rank 0 nranks 16 - Init COMPLETE\n"),
    "script-fixed-world-size": (
        TRACE.replace("train.py", "train_gpt.py") + "    assert world_size == 8 # this code is "
        "designed for 8xH100\n           ^^^^^^^^^^^^^^^\nAssertionError\n",
        "world_size = int(os.environ['WORLD_SIZE'])\nassert world_size == 8  # checked at start\n"
        "step 0/1750 val_loss:10.8258 train_time:0ms\n"),
    "ub-multicast-unsupported": (
        "[rank0]: AssertionError: CUDA device, driver and/or toolkit version does not support "
        "comm+GEMM overlap with CUDA Multicast. Launch app with UB_SKIPMC=1 to try CUDA IPC "
        "instead.\n",
        "[rank0]: UB_SKIPMC=1 set: comm+GEMM overlap uses CUDA IPC\n"),
    "accelerate-prepare-order": (
        TRACE + "    for x, y in dl:\nTypeError: 'AcceleratedOptimizer' object is not iterable\n",
        "optimizer: AcceleratedOptimizer(SGD) lr=0.1\nepoch 0 loss 0.31\n"),
    "horovod-not-built": (
        TRACE + "    import horovod.torch as hvd\nImportError: Extension horovod.torch has not been "
        "built.  If this is not expected, reinstall Horovod with HOROVOD_WITH_PYTORCH=1 to debug "
        "the build error.\n",
        "[1,0]<stdout>:Horovod extension horovod.torch loaded (built with PyTorch 2.4)\n"),
    "nccl-message-truncated": (
        "node-1:342239:342260 [0] transport/net_socket.cc:424 NCCL WARN NET/Socket : peer "
        "192.168.161.30<59210> message truncated : receiving 1048576 bytes instead of 65536\n"
        "node-1:342239:342260 [0] NCCL INFO proxy.cc:494 -> 3\n",
        "node-1:342239:342260 [0] NCCL INFO NET/Socket : receiving 1048576 bytes in chunks of "
        "65536\n"),
    "nccl-cuda-unsupported": (
        "node-1:812:812 [0] init.cc:416 NCCL WARN Cuda failure 'operation not supported'\n"
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3356, unhandled "
        "cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2\n",
        "node-1:812:812 [0] NCCL INFO cuMem support: operation not supported on this device, "
        "using cudaMalloc\nnode-1:812:812 [0] NCCL INFO comm 0x5 rank 0 nranks 2 - Init "
        "COMPLETE\n"),
    "nccl-net-not-found": (
        "node1:1234:1234 [0] NCCL INFO NET/IB : No device found.\nnode1:1234:1234 [0] "
        "init.cc:195 NCCL WARN Error: network IB not found.\n",
        "node1:1234:1234 [0] NCCL INFO NET/IB : No device found.\nnode1:1234:1234 [0] NCCL INFO "
        "NET/Socket : Using [0]eth0:10.0.0.2<0>\nnode1:1234:1234 [0] NCCL INFO Using network "
        "Socket\n"),
    "ray-cluster-not-found": (
        TRACE + "    ray.init(address='auto')\nConnectionError: Could not find any running Ray "
        "instance. Please specify the one to connect to by setting `--address` flag or "
        "`RAY_ADDRESS` environment variable.\n",
        "2024-05-01 10:00:00,123 INFO worker.py:1749 -- Started a local Ray instance. View the "
        "dashboard at 127.0.0.1:8265\n"),
    "cuda-init-unknown-error": (
        "/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA "
        "initialization: CUDA unknown error - this may be due to an incorrectly set up "
        "environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. "
        "Setting the available devices to be zero.\n" + TRACE
        + "    torch.cuda.set_device(local_rank)\nRuntimeError: No CUDA GPUs are available\n",
        "/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA "
        "initialization: CUDA unknown error - this may be due to an incorrectly set up "
        "environment. Setting the available devices to be zero.\nrunning on cpu\n"
        "epoch 0 loss 0.31\nTraining complete.\n"),
    "xformers-operator-missing": (
        TRACE + "    out = xops.memory_efficient_attention(q, k, v)\nNotImplementedError: No "
        "operator found for `memory_efficient_attention_forward` with inputs:\n     query       "
        ": shape=(1, 4096, 8, 40) (torch.float16)\n",
        "xformers memory_efficient_attention_forward: using cutlassF (no operator found for "
        "flash on sm_75)\nstep 10 loss 0.31\n"),
    "mkl-ijit-symbol": (
        TRACE + "    import torch\nImportError: /opt/conda/lib/python3.10/site-packages/torch/lib/"
        "libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent\n",
        "mkl 2024.0 pinned: iJIT_NotifyEvent is exported by libittnotify\n"),
    "openmp-duplicate-runtime": (
        "OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already "
        "initialized.\nOMP: Hint This means that multiple copies of the OpenMP runtime have "
        "been linked into the program.\n",
        "OMP: Info #276: omp_set_nested routine deprecated, please use omp_set_max_active_levels "
        "instead.\nstep 10 loss 0.31\n"),
    "windows-torch-dll-missing": (
        TRACE + "    import torch\nOSError: [WinError 126] The specified module could not be "
        "found. Error loading \"C:\\Python312\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" "
        "or one of its dependencies.\n",
        "Loaded \"C:\\Python312\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" and its "
        "dependencies\n"),
    "nvidia-driver-not-loaded": (
        "$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
        "driver. Make sure that the latest NVIDIA driver is installed and running.\n" + TRACE
        + "    torch.cuda.set_device(local_rank)\nRuntimeError: No CUDA GPUs are available\n",
        "$ nvidia-smi\nNVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: 12.4\n"),
    "mpi-srun-without-pmi": (
        "The application appears to have been direct launched using \"srun\",\nbut OMPI was not "
        "built with SLURM's PMI support and therefore cannot\nexecute.\n*** An error occurred "
        "in MPI_Init_thread\n",
        "srun: launching with --mpi=pmix; OMPI built with SLURM's PMIx support\n"),
    "mpirun-as-root": (
        "mpirun has detected an attempt to run as root.\n\nRunning as root is *strongly* "
        "discouraged as any mistake (e.g., in\ndefining TMPDIR) or bug can result in "
        "catastrophic damage to the OS\n",
        "mpirun --allow-run-as-root -np 2 python train.py\nstep 10 loss 0.31\n"),
    "container-image-has-driver-libs": (
        "docker: Error response from daemon: failed to create shim task: OCI runtime create "
        "failed: runc create failed: unable to start container process: error during container "
        "init: error running hook #0: error running hook: exit status 1, stdout: , stderr: "
        "Auto-detected mode as 'legacy'\nnvidia-container-cli: mount error: file creation "
        "failed: /var/lib/docker/overlay2/abc/merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: "
        "file exists: unknown.\n",
        "nvidia-container-cli: mounted /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 (file exists "
        "on host)\n"),
    "slurm-step-waits": (
        "srun: Job 9479148 step creation temporarily disabled, retrying (Requested nodes are "
        "busy)\n" + "srun: Job 9479148 step creation still disabled, retrying (Requested nodes "
        "are busy)\n" * 3 + "slurmstepd: error: *** JOB 9479148 ON node07 CANCELLED AT "
        "2024-03-01T12:00:00 DUE TO TIME LIMIT ***\n",
        "srun: Job 9479148 step creation temporarily disabled, retrying (Requested nodes are "
        "busy)\nsrun: Step created for job 9479148\nstep 10 loss 0.31\n"),
    "apex-wrong-package": (
        TRACE + "    from pyramid.session import UnencryptedCookieSessionFactoryConfig\nImportError: "
        "cannot import name 'UnencryptedCookieSessionFactoryConfig' from 'pyramid.session' "
        "(unknown location)\n",
        "pyramid.session: UnencryptedCookieSessionFactoryConfig was removed in Pyramid 2.0\n"),
    "offloaded-model-moved": (
        TRACE + "    model.to(device)\nRuntimeError: You can't move a model that has some modules "
        "offloaded to cpu or disk.\n",
        "Some parameters are on the meta device because they were offloaded to the cpu.\n"
        "step 10 loss 0.31\n"),
    "zero3-prefetch-trace": (
        TRACE + "    raise RuntimeError(f\"still have inflight params \"\nRuntimeError: still have "
        "inflight params [{'id': 3, 'status': 'AVAILABLE', 'numel': 4096}]\n",
        "[INFO] [partitioned_param_coordinator.py:120] 3 inflight params after the step\n"),
    "vllm-prompt-too-long": (
        TRACE + "ValueError: The decoder prompt (length 9000) is longer than the maximum model "
        "length of 8192. Make sure that `max_model_len` is no smaller than the number of text "
        "tokens.\n",
        "INFO 05-01 10:00:00 config.py:1000] maximum model length of 8192 set by max_model_len\n"),
    "vllm-lora-rank-too-big": (
        TRACE + "ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n",
        "INFO 05-01 10:00:00 LoRA rank 8 of adapter sql-lora fits max_lora_rank 16\n"),
    "trl-vllm-device-taken": (
        TRACE + "ValueError: The requested device for vllm (cuda:8) is not available. You are "
        "likely using vLLM without restricting the number of GPUs for training.\n",
        "INFO: the requested device for vllm (cuda:7) is free; colocating vLLM there\n"),
    "verl-batch-not-divisible": (
        TRACE + "    assert len(self) % chunks == 0, f'only support equal chunk. Got size of "
        "DataProto {len(self)} and chunk {chunks}.'\nAssertionError: only support equal chunk. "
        "Got size of DataProto 2 and chunk 4.\n",
        "(TaskRunner pid=812) train batch of DataProto 512 split in 8 equal chunks\n"),
    "tensorrt-engine-unloadable": (
        "[TensorRT-LLM][ERROR] 1: [runtime.cpp::parsePlan::314] Error Code 1: Serialization "
        "(Serialization assertion plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.)\n"
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda "
        "engine. (tensorrt_llm/runtime/tllmRuntime.cpp:72)\n",
        "[TensorRT-LLM][INFO] Deserializing cuda engine: rank0.engine (1.2 GiB)\n"),
    "peft-target-modules-missing": (
        TRACE + "ValueError: Target modules ['q_proj', 'v_proj'] not found in the base model. "
        "Please check the target modules and try again.\n",
        "trainable params: 4,194,304 || target modules q_proj, v_proj found in the base model\n"),
    "unsloth-needs-gpu": (
        TRACE + "    from unsloth import FastLanguageModel\nNotImplementedError: Unsloth: No "
        "NVIDIA GPU found? Unsloth currently only supports GPUs!\n",
        "==((====))==  Unsloth 2025.1.5: Fast Llama patching. Transformers: 4.48.0.\n"
        "   \\\\   /|    GPU: NVIDIA A100. Max memory: 39.5 GB.\n"),
    "integer-tensor-requires-grad": (
        TRACE + "    model = FSDP(model, use_orig_params=True)\nRuntimeError: only Tensors of "
        "floating point dtype can require gradients\n",
        "quantized weights stored as bfloat16 (bnb_4bit_quant_storage): they can require "
        "gradients\n"),
    "peft-adapter-not-found": (
        TRACE + "ValueError: Can't find 'adapter_config.json' at 'out/adapter'\n",
        "adapter_config.json found at 'out/adapter'; loading adapter weights\n"),
    "vocab-size-mismatch": (
        TRACE + "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n\tsize mismatch for base_model.model.model.embed_tokens.weight: copying a param with shape torch.Size([32001, 4096]) from checkpoint, the shape in current model is torch.Size([32000, 4096]).\n",
        "resized embed_tokens.weight from torch.Size([32000, 4096]) to torch.Size([32001, 4096])\n"),
    "trl-reward-function-signature": (
        TRACE + "TypeError: reward_len() got an unexpected keyword argument 'prompts'\n",
        "reward_len(prompts, completions, **kwargs) -> 8 rewards\n"),
    "chat-template-missing": (
        TRACE + "ValueError: Cannot use chat template functions because tokenizer.chat_template is not set and no template argument was passed!\n",
        "tokenizer.chat_template is set (ChatML); formatting 1000 conversations\n"),
    "chat-template-not-trainable": (
        TRACE + "ValueError: The chat template is not training-compatible (missing prefix-preservation or `{% generation %}` markers) and patching is not supported for this template.\n",
        "chat template has {% generation %} markers; assistant_only_loss enabled\n"),
    "torchmetrics-task-required": (
        TRACE + "TypeError: Accuracy.__new__() missing 1 required positional argument: 'task'\n",
        "Accuracy(task='multiclass', num_classes=10) = 0.91\n"),
    "torchmetrics-target-classes": (
        TRACE + "RuntimeError: Detected more unique values in `target` than expected. Expected only 3 but found 4 in `target`.\n",
        "val/acc 0.88 (3 classes, ignore_index=-100)\n"),
    "torchmetrics-shape-mismatch": (
        TRACE + "RuntimeError: Predictions and targets are expected to have the same shape, but got torch.Size([8, 1]) and torch.Size([8]).\n",
        "predictions and targets have the same shape: torch.Size([8])\n"),
    "datasets-map-length-mismatch": (
        TRACE + "pyarrow.lib.ArrowInvalid: Column 1 named chunk expected length 10 but got length 15\n",
        "Map (num_proc=4): 100%|##########| 1000/1000 [00:01<00:00, 812.3 examples/s]\n"),
    "datasets-features-unaligned": (
        TRACE + "ValueError: The features can't be aligned because the key label of features {'text': Value('string'), 'label': Value('string')} has unexpected type - Value('string') (expected either Value('int64') or Value(\"null\").\n",
        "concatenated 2 datasets: features aligned (text: string, label: int64)\n"),
    "safetensors-noncontiguous": (
        TRACE + "ValueError: You are trying to save a non contiguous tensor: `proj.weight` which is not allowed.\n",
        "saved 12 contiguous tensors to model.safetensors\n"),
    "safetensors-not-a-tensor": (
        TRACE + "ValueError: Key `step` is invalid, expected torch.Tensor but received <class 'int'>\n",
        "saved step 100 to trainer_state.json and weights to model.safetensors\n"),
    "timm-unknown-model": (
        TRACE + "RuntimeError: Unknown model (vit_base_patch16)\n",
        "Model vit_base_patch16_224 created, param count: 86567656\n"),
    "timm-scheduler-step-epoch": (
        TRACE + "TypeError: Scheduler.step() missing 1 required positional argument: 'epoch'\n",
        "Scheduler.step(epoch=3): lr 0.00098\n"),
    "mixup-odd-batch": (
        TRACE + "AssertionError: Batch size should be even when using this\n",
        "Mixup active: batch size 64 (even)\n"),
    "webdataset-fewer-shards": (
        TRACE + "ValueError: No samples found in dataset; perhaps you have fewer shards than workers.\n",
        "webdataset: 64 shards for 2 ranks x 8 workers\n"),
    "trl-reward-model-labels": (
        TRACE + "ValueError: The model has `num_labels=2`, but reward models require `num_labels=1` to output a single scalar reward per sequence.\n",
        "reward model built with num_labels=1\n"),
    "datasetdict-without-split": (
        TRACE + "KeyError: \"Invalid key: 0. Please first select a split. For example: `my_dataset_dictionary['train'][0]`. Available splits: ['test', 'train']\"\n",
        "DatasetDict({train: Dataset(num_rows: 1000), test: Dataset(num_rows: 100)})\n"),
    "image-folder-empty": (
        TRACE + "RuntimeError: Found 0 images in subfolders of imgs/train. Supported image extensions are .png, .jpg, .jpeg\n",
        "Found 1281167 images in 1000 classes under imgs/train\n"),
    "stateful-dataloader-workers-changed": (
        TRACE + "AssertionError: State doesn't contain key '_snapshot' expected for multiprocess dataloader\n",
        "resumed StatefulDataLoader state (num_workers=4, _snapshot restored)\n"),
    "slurm-submission-refused": (
        "sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or "
        "exceeds some limit)\n",
        "sbatch: Submitted batch job 812 (partition gpu, qos normal, time limit 2-00:00:00)\n"),
    "slurm-not-a-batch-script": (
        "sbatch: error: This does not look like a batch script.  The first\nsbatch: error: line "
        "must start with #! followed by the path to an interpreter.\n",
        "#!/bin/bash\n#SBATCH --nodes=2\nSubmitted batch job 812\n"),
    "ray-version-mismatch": (
        TRACE + "    ray.init(address=\"auto\")\nRuntimeError: Version mismatch: The cluster was "
        "started with:\n    Ray: 2.12.0\n    Python: 3.11.11\nThis process on node 10.0.0.2 was "
        "started with:\n    Ray: 2.42.0\n",
        "Connected to Ray cluster (Ray 2.42.0, Python 3.11.11): no version mismatch\n"),
    "ray-object-store-full": (
        TRACE + "ray.exceptions.ObjectStoreFullError: Failed to put object "
        "ffffffffffffffffffffffff0f00000003000000 in object store because it is full. Object "
        "size is 516884584 bytes.\n",
        "(raylet) Spilled 2048 MiB, 12 objects, write throughput 800 MiB/s (object store was "
        "full)\n"),
    "mpirun-cannot-reach-nodes": (
        "----\nmpirun was unable to launch the specified application as it could not access\n"
        "or execute an executable:\n\nExecutable: python\nNode: node2\n",
        "mpirun: launched the specified application on 2 nodes (python found on node2)\n"),
    "remote-code-imports-missing": (
        TRACE + "ImportError: This modeling file requires the following packages that were not "
        "found in your environment: flash_attn. Run `pip install flash_attn`\n",
        "modeling file loaded with trust_remote_code: every package it imports was found\n"),
    "nccl-peer-closed": (
        "node2:1234:1290 [3] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by "
        "remote peer node1<52402>\nnode2:1234:1290 [3] NCCL INFO misc/socket.cc:750 -> 6\n"
        "srun: error: node2: task 3: Exited with exit code 1\n",
        "node2:1234:1290 [3] NCCL INFO socketProgress: peer node1<52402> connected\n"),
    "nccl-host-memory-sharing": (
        "host:13740:13740 [7] misc/shmutils.cc:132 NCCL WARN Error while attaching to shared "
        "memory segment /dev/shm/nccl- (size 0), error: No such file or directory (2)\n"
        "host:13740:13740 [7] NCCL INFO transport/shm.cc:634 -> 2\n",
        "host:13740:13740 [7] NCCL INFO Channel 00 : 7[7] -> 0[0] via SHM/direct/direct "
        "(size 0 segments shared through cuMem)\n"),
    "nccl-sysfs-unreadable": (
        "DESKTOP:36629:36629 [0] graph/xml.cc:332 NCCL WARN Could not find real path of "
        "/sys/class/pci_bus/0000:01/../../0000:01:00.0\nDESKTOP:36629:36629 [0] NCCL INFO "
        "graph/xml.cc:469 -> 2\n",
        "DESKTOP:36629:36629 [0] NCCL INFO Topology: real path of /sys/class/pci_bus/0000:01 "
        "found\n"),
    "nccl-bootstrap-rank-count": (
        "node26:67298:67321 [0] bootstrap.cc:190 NCCL WARN Bootstrap Root : mismatch in rank "
        "count from procs 6 : 3\n",
        "node26:67298:67321 [0] NCCL INFO Bootstrap Root : rank count 6 from procs 6 : 6\n"),
    "leaf-inplace-requires-grad": (
        TRACE + "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\n",
        "weights updated in place under torch.no_grad(): leaf variable ok\n"),
    "inference-tensor-backward": (
        TRACE + "RuntimeError: Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd.\n",
        "evaluation ran under torch.inference_mode(); 512 inference tensors freed\n"),
    "half-on-cpu": (
        TRACE + "RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'\n",
        "addmm_impl_cpu_ in float32 on cpu: 12 ms\n"),
    "sdpa-flash-backward-gpu": (
        TRACE + "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)\n",
        "GPU is sm80: flash attention backward enabled\n"),
    "flash-attn-dtype": (
        TRACE + "RuntimeError: FlashAttention only support fp16 and bf16 data type\n",
        "FlashAttention: using bf16 data type\n"),
    "backward-hook-inplace": (
        TRACE + "RuntimeError: Output 0 of BackwardHookFunctionBackward is a view and is being modified inplace. This view was created inside a custom Function.\n",
        "registered BackwardHookFunctionBackward on 12 modules\n"),
    "pin-memory-cuda-tensor": (
        TRACE + "RuntimeError: cannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be pinned\n",
        "pin_memory: 12 dense CPU tensors pinned\n"),
    "amp-unscale-twice": (
        TRACE + "RuntimeError: unscale_() has already been called on this optimizer since the last update().\n",
        "scaler.unscale_(optimizer) then scaler.update(): loss scale 65536\n"),
    "bitsandbytes-triton-ops": (
        TRACE + "ModuleNotFoundError: No module named 'triton.ops'\n",
        "triton 3.2 installed; bitsandbytes 0.45.1 does not import triton.ops\n"),
    "dataloader-shared-fd-reset": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/torch/multiprocessing/reductions.py\", line 307, in rebuild_storage_fd\n    fd = df.detach()\nConnectionResetError: [Errno 104] Connection reset by peer\n",
        "rebuild_storage_fd: 512 storages shared by file descriptor\n"),
    "xid-application-fault": (
        "NVRM: Xid (PCI:0000:02:00): 13, pid=14520, Graphics SM Warp Exception on (GPC 1, TPC 2, "
        "SM 0): Out Of Range Address\n",
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.14 (no Xid 13 since boot)\n"),
    "vllm-workers-stuck": (
        ("(EngineCore_DP0 pid=812) WARNING 05-01 10:01:02 [shm_broadcast.py:466] No available "
         "shared memory broadcast block found in 60 seconds. This typically happens when some "
         "processes are hanging or doing some time-consuming work (e.g. compilation).\n") * 3
        + "(EngineCore_DP0 pid=812) ERROR 05-01 10:05:02 [core.py:710] TimeoutError: RPC call "
        "to execute_model timed out.\n",
        "(EngineCore_DP0 pid=812) WARNING 05-01 10:01:02 [shm_broadcast.py:466] No available "
        "shared memory broadcast block found in 60 seconds. This typically happens when some "
        "processes are hanging or doing some time-consuming work (e.g. compilation).\n"
        "(EngineCore_DP0 pid=812) INFO 05-01 10:01:40 [core.py:210] init engine (profile, "
        "create kv cache, warmup model) took 124.16 seconds\n"),
    "nccl-connect-refused": (
        "worker-0:16:63 [0] NCCL INFO Call to connect returned Connection refused, retrying\n"
        * 6 + "worker-0:16:63 [0] misc/socket.cc:484 NCCL WARN socketPollConnect: connect to "
        "10.0.0.2<43917> returned Connection refused, exceeded error retry count (35)\n",
        "worker-0:16:63 [0] NCCL INFO Call to connect returned Connection refused, retrying\n"
        * 2 + "worker-0:16:63 [0] NCCL INFO comm 0x5 rank 0 nranks 2 - Init COMPLETE\n"
        "step 1 loss 0.31\n"),
    "lightning-log-not-scalar": (
        TRACE + "ValueError: `self.log(per_sample_err, tensor([0.3083, 2.0320]))` was called, "
        "but the tensor must have a single element. You can try doing `self.log(per_sample_err,"
        " tensor([0.3083, 2.0320]).mean())`\n",
        "self.log('train_loss', 0.31) on step 10\n"),
    "lightning-top-k-without-monitor": (
        TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: "
        "ModelCheckpoint(save_top_k=3, monitor=None) is not a valid configuration. No quantity "
        "for top_k to track.\n",
        "ModelCheckpoint(save_top_k=3, monitor='val_loss'): 3 best kept\n"),
    "accelerate-gradient-accumulation-twice": (
        TRACE + "ValueError: You can only pass one of `gradient_accumulation_steps` and "
        "`gradient_accumulation_plugin`. Please only pass in the created "
        "`GradientAccumulationPlugin` object.\n",
        "gradient_accumulation_steps: 4 (GradientAccumulationPlugin)\n"),
    "rank-not-below-world-size": (
        TRACE + "RuntimeError: [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/"
        "context.cc:23] rank < size. 2 vs 2\n",
        "rank 1 of world size 2 joined\n"),
    "ddp-meta-device-model": (
        TRACE + '  File "/opt/conda/lib/python3.11/site-packages/torch/distributed/utils.py", '
        "line 286, in _verify_param_shape_across_processes\n    return dist._verify_params_"
        "across_processes(process_group, tensors, logger)\nRuntimeError: Tensor.item() cannot "
        "be called on meta tensors\n",
        "model created on the meta device; materialised with to_empty(device='cuda')\n"),
    "device-mesh-names-length": (
        TRACE + "RuntimeError: mesh_shape and mesh_dim_names should have same length! Found "
        "len(mesh_dim_names): 2 and len(mesh_shape):1.\n",
        "mesh_shape (2, 4), mesh_dim_names ('dp', 'tp')\n"),
    "tf32-unsupported": (
        TRACE + "ValueError: --tf32 requires Ampere or a newer GPU arch, cuda>=11 and torch>=1.7\n",
        "tf32=True on A100 (compute capability 8.0)\n"),
    "accelerate-save-iteration-reset": (
        TRACE + "ValueError: Checkpoint directory /run/checkpoints/checkpoint_0 (0) already exists. "
        "Please manually override `self.save_iteration` with what iteration to start with.\n",
        "WARNING: Deleting 1 checkpoints to make room for new checkpoint.\n"),
    "collate-unequal-sizes": (
        TRACE + "RuntimeError: each element in list of batch should be of equal size\n",
        "collate: padded 64 sequences to length 512 (pad_sequence)\n"),
    "collate-unsupported-type": (
        TRACE + "TypeError: default_collate: batch must contain tensors, numpy arrays, numbers, dicts "
        "or lists; found <class 'PIL.Image.Image'>\n",
        "transform: Resize(224), ToTensor(): batches of tensors\n"),
    "checkpoint-pickled-main-class": (
        TRACE + "  File \"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 1784, in "
        "find_class\n    return super().find_class(mod_name, name)\nAttributeError: Can't get "
        "attribute 'ResNetClassifier' on <module '__main__' from 'evaluate.py'>\n",
        "torch.load('model.pt'): state_dict loaded into ResNetClassifier from models.py\n"),
    "fsdp-meta-params-not-materialized": (
        TRACE + "RuntimeError: FSDP parameters should be materialized from meta device before "
        "training, but the following were still on meta device: ['embed.weight']\n",
        "model.to_empty(device='cuda'); model.init_weights(): parameters materialized\n"),
    "fsdp-offload-params-on-gpu": (
        TRACE + "RuntimeError: FSDP parameters should be materialized on CPU when enabling CPU "
        "offloading. For example, load a CPU state dict or call "
        "module.to_empty(device=\"cpu\").\n",
        "CPUOffloadPolicy: sharded parameters kept on CPU\n"),
    "fsdp-tied-params-split": (
        TRACE + "ValueError: Parameter 'head.weight' is shared with a parameter already managed by "
        "another FSDP group. For shared/tied parameters, use fully_shard([module_a, module_b]) "
        "to place them in the same FSDP group.\n",
        "fully_shard([model.embed, model.head]): tied weights in one FSDP group\n"),
    "fsdp-scalar-param": (
        TRACE + "ValueError: fully_shard doesn't support scalar parameters. Change logit_scale to a 1D "
        "tensor with numel equal to 1.\n",
        "logit_scale: 1-D parameter of 1 element, sharded\n"),
    "fsdp-forward-not-through-root": (
        TRACE + "RuntimeError: FSDP state has already been lazily initialized for layers.0\n",
        "FSDP root: model (8 layers sharded) lazily initialized on its first forward\n"),
    "fsdp-wrapped-twice": (
        TRACE + "ValueError: FSDP auto wrapping requires modules to not already have FSDP applied but "
        "found model.layers.0 in\n",
        "FSDP auto wrapping: 32 LlamaDecoderLayer modules wrapped\n"),
    "hsdp-mesh-unnamed": (
        TRACE + "AssertionError: Please init the 2D mesh for HSDP with mesh_dim_names specified\n",
        "init_device_mesh('cuda', (2, 4), mesh_dim_names=('replicate', 'shard'))\n"),
    "tp-plan-wrong-module-type": (
        TRACE + "NotImplementedError: ColwiseParallel currently only support nn.Linear and "
        "nn.Embedding!\n",
        "parallelize_module: ColwiseParallel on attn.q_proj (nn.Linear)\n"),
    "pipeline-step-under-no-grad": (
        TRACE + "RuntimeError: step() requires gradients to be enabled for backward computation; it "
        "should not be used under torch.no_grad() context. Please call eval() instead.\n",
        "schedule.eval(x): evaluation without backward\n"),
    "iterable-dataset-sampler": (
        TRACE + "ValueError: DataLoader with IterableDataset: expected unspecified sampler option, but "
        "got sampler=<torch.utils.data.distributed.DistributedSampler object at "
        "0x7f37cdb18f90>\n",
        "split_dataset_by_node(ds, rank=0, world_size=2): streaming shard for this rank\n"),
    "dataloader-options-need-workers": (
        TRACE + "ValueError: persistent_workers option needs num_workers > 0\n",
        "DataLoader(num_workers=4, persistent_workers=True, prefetch_factor=2)\n"),
    "dataloader-batch-sampler-conflict": (
        TRACE + "ValueError: batch_sampler option is mutually exclusive with batch_size, shuffle, "
        "sampler, and drop_last\n",
        "DataLoader(ds, batch_sampler=BucketSampler(lengths, 32))\n"),
    "dataloader-timeout": (
        TRACE + "RuntimeError: DataLoader timed out after 120 seconds\n",
        "DataLoader(timeout=120): every batch within 2 s\n"),
    "worker-stuck-in-kernel": (
        TRACE + "E0612 10:14:03.512000 48213 "
        "torch/distributed/elastic/agent/server/local_elastic_agent.py:554] [default] Worker "
        "pid=48292 stuck in uninterruptible sleep (D-state) for 300.1s (>= 300.0s); marking "
        "worker group UNHEALTHY and disabling restarts.\n",
        "W0612 10:09:03.441000 48213 "
        "torch/distributed/elastic/agent/server/local_elastic_agent.py:586] [default] Worker "
        "pid=48292 entered uninterruptible sleep (D-state); will mark UNHEALTHY if it remains "
        "for 300.0s.\n[rank0]: step 1300 loss 2.1\n"),
    "store-address-other-service": (
        "[W1127 18:36:59.252079884 TCPStore.cpp:340] [c10d] TCP client failed to "
        "connect/validate to host 10.0.0.5:29500 - retrying (try=0, timeout=900000ms, "
        "delay=329ms): Ping failed, invalid value returned from server. Expected: 24287, Got: "
        "1347703880\n" + TRACE + "    dist.init_process_group('gloo')\n"
        "torch.distributed.DistStoreError: TCP client failed to connect/validate "
        "to host 10.0.0.5:29500 - timed out (try=9, timeout=900000ms): Ping failed, invalid "
        "value returned from server. Expected: 24287, Got: 1347703880\n",
        "[W1127 18:36:59.252079884 TCPStore.cpp:340] [c10d] TCP client failed to "
        "connect/validate to host 10.0.0.5:29500 - retrying (try=0, timeout=900000ms, "
        "delay=329ms): Ping failed, invalid value returned from server. Expected: 24287, Got: "
        "1347703880\n[rank0]: step 1 loss 2.30\n"),
    "backend-name-unknown": (
        TRACE + "ValueError: Unknown backend 'ncll'. Specify a 'device:backend' string or use one of: "
        "['gloo', 'nccl', 'xccl']\n",
        "init_process_group(backend='nccl'): NCCL version 2.27.5\n"),
    # messages with several common causes
    "meta-tensor-never-loaded": (
        TRACE + "    model = model.to(local_rank)\n  File \"/venv/lib/python3.10/site-packages/"
        "torch/nn/modules/module.py\", line 1160, in convert\n    return t.to(device, "
        "dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)\n"
        "NotImplementedError: Cannot copy out of meta tensor; no data!\n",
        "Loading checkpoint shards: 100%|##########| 2/2 [00:04<00:00,  2.1s/it]\n"
        "model built on the meta device, materialised with to_empty(); no data was lost\n"),
    # accelerate's accelerator.py (0.x and 1.x) on a Mac
    "mps-fp16-unsupported": (
        "  File \"/Users/me/venv/lib/python3.10/site-packages/accelerate/accelerator.py\", line "
        "495, in __init__\n    raise ValueError(f\"fp16 mixed precision requires a GPU (not "
        "{self.device.type!r}).\")\nValueError: fp16 mixed precision requires a GPU (not 'mps').\n",
        "accelerate: mixed_precision='bf16' on mps (torch 2.5.1); fp16 GradScaler ready\n"),
    # torch's MPSAllocator.mm, and Metal Performance Shaders' assertion
    "mps-tensor-too-large": (
        TRACE + "    image = pipe(prompt, height=2048, width=2048).images[0]\n  File \"/Users/me/"
        "venv/lib/python3.10/site-packages/torch/nn/functional.py\", line 5373, in "
        "scaled_dot_product_attention\nRuntimeError: Invalid buffer size: 10.00 GB\n",
        "MPS: recommended max working set size 21.33 GB; buffer size 1.00 GB allocated\n"),
    # torch's UnaryOps.mm on macOS 13.2
    "mps-cumsum-int64": (
        "  File \"/opt/homebrew/lib/python3.10/site-packages/transformers/models/bart/"
        "modeling_bart.py\", line 120, in create_position_ids\n    incremental_indices = "
        "torch.cumsum(mask, dim=1).type_as(mask) * mask\nRuntimeError: MPS does not support "
        "cumsum op with int64 input\n",
        "MPS: cumsum on int32 input (macOS 14.4); position ids built\n"),
    # libnvidia-container's ldcache step under docker's prestart hook
    "container-toolkit-ldconfig-path": (
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: "
        "starting container process caused \"process_linux.go:449: container init caused "
        "\\\"process_linux.go:432: running prestart hook 0 caused \\\\\\\"error running hook: exit "
        "status 1, stdout: , stderr: nvidia-container-cli: ldcache error: open failed: "
        "/sbin/ldconfig.real: no such file or directory\\\\\\\\n\\\\\\\"\\\"\": unknown.\n",
        "nvidia-container-cli: ldcache: /sbin/ldconfig found, cache updated\n"),
    "container-toolkit-cgroup-device-rules": (
        "Error: failed to create containerd task: failed to create shim task: OCI runtime "
        "create failed: runc create failed: unable to start container process: error during "
        "container init: error running hook #0: error running hook: exit status 1, stdout: , "
        "stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: mount error: failed to "
        "add device rules: unable to find any existing device filters attached to the cgroup: "
        "bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown\n",
        "nvidia-container-cli: device rules added for /dev/nvidia0 (cgroup v2)\n"),
    # boto3's RunInstances (a launcher starting the job's nodes)
    "cloud-no-capacity": (
        TRACE + "botocore.exceptions.ClientError: An error occurred "
        "(InsufficientInstanceCapacity) when calling the RunInstances operation (reached max "
        "retries: 4): We currently do not have sufficient p4d.24xlarge capacity in the "
        "Availability Zone you requested (us-east-1a). Our system will be working on "
        "provisioning additional capacity.\n",
        "Launched 2 x p4d.24xlarge in us-east-1b (capacity reservation cr-0abc)\n"),
    # the kubelet's event, in kubectl describe pod
    "k8s-gpu-allocate-failed": (
        "Events:\n  Type     Reason                    Age   From     Message\n  Warning  "
        "UnexpectedAdmissionError  12s   kubelet  Allocate failed due to requested number of "
        "devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is "
        "unexpected\n",
        "  Normal   Scheduled  12s  default-scheduler  Successfully assigned default/train-0 "
        "to gpu-node-3 (nvidia.com/gpu: 1 allocated)\n"),
    # torch_xla 1.x (XRT)
    "xla-mesh-master-unreachable": (
        "2023-05-01 10:00:00.000000: F tensorflow/compiler/xla/xla_client/"
        "xrt_computation_client.cc:1344] Non-OK-status: session.Run({tensorflow::Output(result, "
        "0)}, &outputs) status: UNAVAILABLE: Failed to connect to client mesh master: "
        "t1v-n-1234-w-0.us-central2-b.c.proj.internal:8477\n",
        "I0501 10:00:00.000000 mesh_service.cc:312] Connected to mesh master "
        "t1v-n-1234-w-0:8477\n"),
    "container-toolkit-driver-error": (
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:345: "
        "starting container process caused \"process_linux.go:430: container init caused "
        "\\\"process_linux.go:413: running prestart hook 1 caused \\\\\\\"error running hook: exit "
        "status 1, stdout: , stderr: nvidia-container-cli: initialization error: driver error: "
        "failed to process request\\\\\\\\n\\\\\\\"\\\"\": unknown.\n",
        "nvidia-container-cli: initialization: driver 550.54.15 loaded, request processed\n"),
    # the Kubeflow training operator's event (kubectl describe pytorchjob)
    "kubeflow-replica-failed": (
        "Events:\n  Type     Reason            Age  From                   Message\n  Warning  "
        "PyTorchJobFailed  2m   pytorchjob-controller  PyTorchJob pytorch-dist-mnist is failed "
        "because 1 Master replica(s) failed.\n",
        "  Normal   PyTorchJobSucceeded  2m  pytorchjob-controller  PyTorchJob pytorch-dist-mnist "
        "is successfully completed.\n"),
    "cublas-execution-failed": (
        TRACE + "    output = model(images)\nRuntimeError: CUDA error: "
        "CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, "
        "&falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, "
        "CUDA_R_32F, CUBLAS_GEMM_DFALT_TENSOR_OP)`\n",
        "cuBLAS workspace config :4096:8; CUBLAS_WORKSPACE_CONFIG set for determinism\n"),
    "cudnn-internal-error": (
        TRACE + "    out = self.conv1(x)\nRuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n",
        "torch.backends.cudnn.version() = 90100; cudnn.benchmark = True\n"),
    # saving, loading and resuming checkpoints (Lightning, torch.load, huggingface_hub, Megatron)
    "lightning-not-a-lightning-checkpoint": (
        TRACE + "    model = LitOCR.load_from_checkpoint('weights/parseq_tiny.pt')\n  File "
        "\"/venv/lib/python3.10/site-packages/pytorch_lightning/core/saving.py\", line 66, in "
        "_load_from_checkpoint\n    checkpoint = _pl_migrate_checkpoint(\n  File \"/venv/lib/"
        "python3.10/site-packages/pytorch_lightning/utilities/migration/utils.py\", line 164, in "
        "_get_version\n    return checkpoint[\"pytorch-lightning_version\"]\n"
        "KeyError: 'pytorch-lightning_version'\n",
        "Lightning automatically upgraded your loaded checkpoint from v1.9.5 to v2.2.1 "
        "(pytorch-lightning_version recorded)\n"),
    "lightning-hparams-not-saved": (
        TRACE + "    model = Segmenter.load_from_checkpoint(args.ckpt)\n  File \"/venv/lib/"
        "python3.10/site-packages/lightning/pytorch/core/saving.py\", line 165, in _load_state\n"
        "    obj = instantiator(cls, _cls_kwargs) if instantiator else cls(**_cls_kwargs)\n"
        "TypeError: Segmenter.__init__() missing 1 required positional argument: 'backbone'\n",
        "hyper_parameters restored from checkpoint: backbone, lr, num_classes\n"),
    "lightning-best-checkpoint-unknown": (
        TRACE + "    trainer.test(model, datamodule=dm, ckpt_path=\"best\")\nValueError: "
        "`.test(ckpt_path=\"best\")` is set but `ModelCheckpoint` is not configured to save the "
        "best model.\n",
        "Restoring states from the checkpoint path at /runs/exp3/checkpoints/best.ckpt "
        "(ckpt_path=\"best\")\n"),
    "lightning-deepspeed-checkpoint-not-folder": (
        TRACE + "    trainer.fit(model, ckpt_path=args.resume)\n  File \"/venv/lib/python3.10/"
        "site-packages/lightning/pytorch/strategies/deepspeed.py\", line 798, in "
        "load_checkpoint\n    _validate_checkpoint_directory(checkpoint_path)\n"
        "FileNotFoundError: The provided path is not a valid DeepSpeed checkpoint: "
        "/runs/exp2/last.ckpt/checkpoint/mp_rank_00_model_states.pt\n",
        "Restoring states from the DeepSpeed checkpoint folder /runs/exp2/last.ckpt\n"),
    "torch-too-old-for-checkpoint": (
        TRACE + "  File \"/venv/lib/python3.7/site-packages/torch/serialization.py\", line 386, in "
        "load\n    return _load(f, map_location, pickle_module, **pickle_load_args)\n"
        "RuntimeError: /models/net_best.pth is a zip archive (did you mean to use "
        "torch.jit.load()?)\n",
        "torch 2.3.1: saving /models/net_best.pth as a zip archive\n"),
    "checkpoint-python2-pickle": (
        TRACE + "    checkpoint = torch.load(path)\n  File \"/venv/lib/python3.8/site-packages/"
        "torch/serialization.py\", line 574, in _load\n    result = unpickler.load()\n"
        "UnicodeDecodeError: 'ascii' codec can't decode byte 0x8b in position 2: ordinal not "
        "in range(128)\n",
        "loaded /models/tracker.pth (encoding='latin1', saved under Python 2.7)\n"),
    "hf-local-path-missing": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/huggingface_hub/utils/_validators.py\", "
        "line 160, in validate_repo_id\n    raise HFValidationError(\n"
        "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or "
        "'namespace/repo_name': '/scratch/out/llama-sft/checkpoint-800'. Use `repo_type` "
        "argument if needed.\n",
        "Loading model from local folder /scratch/out/llama-sft/checkpoint-800 (repo id not "
        "needed)\n"),
    "megatron-checkpoint-no-training-state": (
        " loading checkpoint from /data/ckpt/llama2-7b-tp2 at iteration 1\n checkpoint version "
        "3.0\nUnable to load optimizer from checkpoint /data/ckpt/llama2-7b-tp2/iter_0000001/"
        "mp_rank_00/model_optim_rng.pt. Specify --no-load-optim or --finetune to prevent "
        "attempting to load the optimizer state, exiting ...\n",
        " loading checkpoint from /data/ckpt/llama2-7b-tp2 at iteration 1 (--finetune: "
        "optimizer state not loaded)\n"),
    "hf-folder-no-weights": (
        TRACE + "    model = AutoModelForCausalLM.from_pretrained(args.ckpt)\nOSError: Error no file "
        "named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or "
        "flax_model.msgpack found in directory /scratch/out/checkpoint-1200.\n",
        "loading weights file model.safetensors from directory /scratch/out/checkpoint-1200\n"),
    "hf-folder-no-config": (
        TRACE + "    model = AutoModelForCausalLM.from_pretrained(args.model)\nOSError: "
        "/scratch/qlora/7b/checkpoint-2000 does not appear to have a file named config.json. "
        "Checkout 'https://huggingface.co//scratch/qlora/7b/checkpoint-2000/None' for "
        "available files.\n",
        "loading configuration file /scratch/qlora/7b/checkpoint-2000/config.json\n"),
    "llava-model-import-hidden": (
        "Traceback (most recent call last):\n  File \"/root/LLaVA/llava/train/train_mem.py\", "
        "line 1, in <module>\n    from llava.train.train import train\n  File \"/root/LLaVA/"
        "llava/__init__.py\", line 1, in <module>\n    from .model import LlavaLlamaForCausalLM"
        "\nImportError: cannot import name 'LlavaLlamaForCausalLM' from 'llava.model' (/root/"
        "LLaVA/llava/model/__init__.py)\n",
        "from llava.model import LlavaLlamaForCausalLM: loaded llava.model (/root/LLaVA/llava/"
        "model/__init__.py)\n"),
    "llava-vision-tower-not-loaded-name": (
        TRACE + "  File \"/app/LLaVA/llava/mm_utils.py\", line 33, in process_images\n    image "
        "= expand2square(image, tuple(int(x*255) for x in image_processor.image_mean))\n"
        "AttributeError: 'NoneType' object has no attribute 'image_mean'\n",
        "image_processor.image_mean = [0.481, 0.458, 0.408] (CLIPImageProcessor)\n"),
    "llava-config-no-vision-tower": (
        TRACE + "  File \"/data/LLaVA-main/llava/model/builder.py\", line 156, in "
        "load_pretrained_model\n    if not vision_tower.is_loaded:\nAttributeError: 'NoneType' "
        "object has no attribute 'is_loaded'\n",
        "llava/model/builder.py: vision_tower.is_loaded = True (openai/clip-vit-large-patch14-336)"
        "\n"),
    "peft-lora-conv3d-unsupported": (
        TRACE + "  File \"/usr/local/lib/python3.10/site-packages/peft/tuners/lora/model.py\", "
        "line 350, in _create_new_module\n    raise ValueError(\nValueError: Target module "
        "Conv3d(3, 1280, kernel_size=(2, 14, 14), stride=(2, 14, 14), bias=False) is not "
        "supported. Currently, only the following modules are supported: `torch.nn.Linear`, "
        "`torch.nn.Embedding`, `torch.nn.Conv2d`, `transformers.pytorch_utils.Conv1D`.\n",
        "visual.patch_embed.proj: Conv3d(3, 1280, kernel_size=(2, 14, 14), stride=(2, 14, 14), "
        "bias=False) frozen\n"),
    "peft-lora-target-is-container": (
        "[rank0]:   File \"/venv/lib/python3.10/site-packages/peft/tuners/lora/model.py\", line "
        "347, in _create_new_module\n[rank0]:     raise ValueError(\n[rank0]: ValueError: "
        "Target module Qwen2DecoderLayer(\n[rank0]:   (self_attn): Qwen2SdpaAttention(\n"
        "[rank0]:     (q_proj): Linear(in_features=5120, out_features=5120, bias=True)\n"
        "[rank0]:   )\n[rank0]: ) is not supported. Currently, only the following modules are "
        "supported: `torch.nn.Linear`, `torch.nn.Embedding`, `torch.nn.Conv2d`.\n",
        "[rank0]: model.layers.0: Qwen2DecoderLayer(\n"),
    "qwen-vl-rope-index-truncated": (
        TRACE + "  File \"/usr/local/lib/python3.10/site-packages/verl/models/transformers/"
        "qwen2_vl.py\", line 152, in get_rope_index\n    position_ids[..., attention_mask == 1] "
        "= llm_positions.to(position_ids.device)\nRuntimeError: shape mismatch: value tensor of "
        "shape [3, 19963] cannot be broadcast to indexing result of shape [3, 16467]\n",
        "get_rope_index: position_ids of shape [3, 4095] for 4095 tokens\n"),
    "vlm-image-features-tokens-mismatch": (
        "[rank0]:   File \"/usr/local/lib/python3.10/site-packages/transformers/models/qwen2_vl/"
        "modeling_qwen2_vl.py\", line 1690, in forward\n[rank0]:     raise ValueError(\n"
        "[rank0]: ValueError: Image features and image tokens do not match: tokens: 9888, "
        "features 9887\n",
        "image features: 9887, image tokens: 9887 (sample 12)\n"),
    "qwen-vl-rope-index-mask-mismatch": (
        "[rank5]:   File \"/venv/lib/python3.10/site-packages/transformers/models/qwen2_5_vl/"
        "modeling_qwen2_5_vl.py\", line 1589, in get_rope_index\n[rank5]:     input_ids = "
        "input_ids[attention_mask[i] == 1]\n[rank5]: IndexError: The shape of the mask [198] at "
        "index 0 does not match the shape of the indexed tensor [197] at index 0\n",
        "get_rope_index: attention_mask [198] and input_ids [198] for sample 3\n"),
    "hf-tensor-shape-disagrees": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/accelerate/utils/modeling.py\", line "
        "348, in set_module_tensor_to_device\n    raise ValueError(\nValueError: Trying to set "
        "a tensor of shape torch.Size([4096, 4096]) in \"weight\" (which has shape "
        "torch.Size([4096, 11008])), this looks incorrect.\n",
        "set_module_tensor_to_device: weight of shape torch.Size([4096, 4096]) placed on "
        "cuda:0\n"),
    "checkpoint-permission-denied": (
        TRACE + "    torch.save(state, os.path.join(args.out, 'last.pth'))\n  File \"/venv/lib/"
        "python3.10/site-packages/torch/serialization.py\", line 440, in save\n    with "
        "_open_zipfile_writer(f) as opened_zipfile:\nPermissionError: [Errno 13] Permission "
        "denied: '/mnt/results/last.pth'\n",
        "torch.save: wrote /mnt/results/last.pth (permission bits 0644)\n"),
    "sampling-probabilities-nan": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/transformers/generation/utils.py\", "
        "line 2528, in _sample\n    next_tokens = torch.multinomial(probs, num_samples=1)"
        ".squeeze(1)\nRuntimeError: probability tensor contains either `inf`, `nan` or "
        "element < 0\n",
        "sampling with temperature 0.7, top_p 0.9: 128 tokens per second\n"),
    "hf-weights-unreadable": (
        TRACE + "  File \"/venv/lib/python3.8/site-packages/transformers/modeling_utils.py\", "
        "line 442, in load_state_dict\n    raise OSError(\nOSError: Unable to load weights "
        "from pytorch checkpoint file for '/models/llama/pytorch_model-00002-of-00002.bin' at "
        "'/models/llama/pytorch_model-00002-of-00002.bin'. If you tried to load a PyTorch "
        "model from a TF 2.0 checkpoint, please set from_tf=True.\n",
        "Loading weights from pytorch checkpoint file /models/llama/pytorch_model.bin: done\n"),
    "te-fp8-shape-indivisible": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/transformer_engine/pytorch/"
        "module/linear.py\", line 112, in forward\n    assert_dim_for_fp8_exec(inputmat)\n  "
        "File \"/usr/local/lib/python3.10/dist-packages/transformer_engine/pytorch/utils.py\", "
        "line 253, in assert_dim_for_fp8_exec\n    assert check_dim_for_fp8_exec(tensor), (\n"
        "AssertionError: FP8 execution requires 2D input matrices with height divisible by 8 "
        "and width divisible by 16, but got tensor with dims=[896, 712]\n",
        "FP8 recipe: DelayedScaling(margin=0, fp8_format=HYBRID, amax_history_len=1024)\n"),
    "triton-ldconfig-missing": (
        TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/triton/common/build.py\", "
        "line 21, in libcuda_dirs\n    libs = subprocess.check_output([\"/sbin/ldconfig\", "
        "\"-p\"]).decode()\n  File \"/opt/conda/lib/python3.10/subprocess.py\", line 1863, in "
        "_execute_child\n    raise child_exception_type(errno_num, err_msg, err_filename)\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/sbin/ldconfig'\n",
        "ldconfig: /usr/lib/x86_64-linux-gnu/libcuda.so.1 is a symbolic link\n"),
    "triton-ptxas-missing": (
        TRACE + "  File \"/venv/lib/python3.11/site-packages/triton/backends/nvidia/compiler.py\","
        " line 31, in _path_to_binary\n    raise RuntimeError(f\"Cannot find {binary}\")\n"
        "RuntimeError: Cannot find ptxas\n",
        "ptxas info    : Compiling entry function 'triton_poi_fused_add_0' for 'sm_90a'\n"),
    "triton-no-active-driver": (
        TRACE + "  File \"/root/miniconda3/lib/python3.12/site-packages/triton/runtime/"
        "driver.py\", line 8, in _create_driver\n    raise RuntimeError(f\"{len(actives)} "
        "active drivers ({actives}). There should only be one.\")\nRuntimeError: 0 active "
        "drivers ([]). There should only be one.\n",
        "triton: 1 active driver (CudaDriver)\n"),
    "triton-kernel-wrong-device": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/triton/compiler/compiler.py\", "
        "line 376, in _init_handles\n    mod, func, n_regs, n_spills = cuda_utils.load_binary"
        "(self.metadata[\"name\"], self.asm[\"cubin\"], self.shared, device)\nRuntimeError: "
        "Triton Error [CUDA]: context is destroyed\n",
        "Triton kernel cache hit for device cuda:1 (context created)\n"),
    "dtensor-cross-mesh": (
        "[rank0]: Traceback (most recent call last):\n[rank0]:   File \"/workspace/train.py\", "
        "line 210, in <module>\n[rank0]:     optimizer.step()\n[rank0]: NotImplementedError: "
        "aten._foreach_mul_.Scalar: DTensor does not support cross-mesh operation yet!Got "
        "meshes: DeviceMesh('cuda', [[0, 1], [2, 3]], mesh_dim_names=('dp', 'tp')) "
        "DeviceMesh('cuda', [1, 3], mesh_dim_names=('dp',))\n",
        "[rank0]: DeviceMesh('cuda', [[0, 1], [2, 3]], mesh_dim_names=('dp', 'tp')) created\n"),
    "sequence-parallel-length-indivisible": (
        TRACE + "  File \"/workspace/Megatron-LM/megatron/core/tensor_parallel/mappings.py\", "
        "line 245, in forward\n    return _split_along_first_dim(input_)\n  File "
        "\"/workspace/Megatron-LM/megatron/core/tensor_parallel/mappings.py\", line 58, in "
        "_split_along_first_dim\n    assert (\nAssertionError: First dimension of the tensor "
        "should be divisible by tensor parallel size\n",
        " sequence_parallel ............................... True\n"),
    "te-flash-attn-version-unsupported": (
        TRACE + "  File \"/usr/local/lib/python3.12/dist-packages/transformer_engine/pytorch/"
        "attention/dot_product_attention/utils.py\", line 118, in <module>\n    raise "
        "ValueError(\nValueError: Supported flash-attn versions are >= 2.1.1, <= 2.7.4.post1. "
        "Found flash-attn 2.8.3.\n",
        "Successfully installed flash-attn-2.7.4.post1\n"),
    "te-pytorch-extension-missing": (
        TRACE + "  File \"/workspace/megatron/core/extensions/transformer_engine.py\", line 60,"
        " in <module>\n    class TENorm(te.pytorch.LayerNorm):\nAttributeError: module "
        "'transformer_engine' has no attribute 'pytorch'\n",
        "transformer_engine 2.4.0: transformer_engine.pytorch loaded\n"),
    "triton-pointer-not-accessible": (
        TRACE + "  File \"/venv/lib/python3.12/site-packages/triton/backends/nvidia/driver.py\","
        " line 529, in __call__\n    self.launch(gridX, gridY, gridZ, stream, function, "
        "self.launch_cooperative_grid, global_scratch, *args)\nValueError: Pointer argument "
        "(at 0) cannot be accessed from Triton (cpu tensor?)\n",
        "Triton kernel arguments: pointer argument at 0 on cuda:0\n"),
    "triton-passmanager-failed": (
        TRACE + "    res2 = jit_func(x)\ntorch._dynamo.exc.BackendCompilerFailed: "
        "backend='inductor' raised:\nRuntimeError: PassManager::run failed\n",
        "PassManager: 42 passes run on triton_poi_fused_add_0\n"),
    "inductor-no-valid-choices": (
        TRACE + "    out = model(x)\ntorch._dynamo.exc.BackendCompilerFailed: backend='inductor' "
        "raised:\nLoweringException: NoValidChoicesError: No choices to select, please consider "
        "adding ATEN into max_autotune_gemm_backends config (defined in torch/_inductor/"
        "config.py) to allow at least one choice.\n  target: flex_attention\n",
        "Autotune Choices Stats: 12 choices to select, best triton_mm_4 0.0123 ms\n"),
    "inductor-compile-worker-died": (
        TRACE + "  File \"/venv/lib/python3.11/site-packages/torch/_inductor/async_compile.py\", "
        "line 265, in wait\n    raise RuntimeError(\nRuntimeError: A compilation subprocess "
        "exited unexpectedly. This is likely due to a crash. To facilitate debugging, you can "
        "re-run with TORCHINDUCTOR_COMPILE_THREADS=1 to cause compilation to occur in the main "
        "process.\n",
        "Inductor: starting 32 compilation subprocesses (TORCHINDUCTOR_COMPILE_THREADS=32)\n"),
    "dtensor-sharding-propagation-failed": (
        "RuntimeError: ('Attempted to flatten sharded dimension 1, ', 'but only the leftmost dim "
        "of a Flatten can be sharded.')\n\nThe above exception was the direct cause of the "
        "following exception:\n\n" + TRACE + "    h = h.view(b, s, -1)\nRuntimeError: Sharding "
        "propagation failed for Op(op=aten.view.default, args_schema=Spec((Replicate(), "
        "Shard(dim=0), Shard(dim=1), Shard(dim=2)) on (8, 8, 4)), [64, 4] @ mesh: (1, 2, 2, 2))"
        "\n",
        "Sharding propagation cache hit for Op(op=aten.view.default)\n"),
    "spawned-worker-broken-pipe": (
        TRACE + "    for i, (images, target) in enumerate(train_loader):\n  File "
        "\"C:\\\\Python38\\\\lib\\\\multiprocessing\\\\reduction.py\", line 60, in dump\n"
        "    ForkingPickler(file, protocol).dump(obj)\nBrokenPipeError: [Errno 32] Broken pipe\n",
        "BrokenPipeError: [Errno 32] Broken pipe\nException ignored in: <_io.TextIOWrapper "
        "name='<stdout>' mode='w' encoding='utf-8'>\n"),
    "vllm-architecture-unsupported": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/vllm/model_executor/models/"
        "registry.py\", line 382, in _raise_for_unsupported\n    raise ValueError(\n"
        "ValueError: Model architectures ['Qwen3ForCausalLM'] are not supported for now. "
        "Supported architectures: dict_keys(['AquilaModel', 'LlamaForCausalLM'])\n",
        "INFO 05-02 10:11:12 config.py:510 Model architectures ['LlamaForCausalLM'] resolved "
        "to LlamaForCausalLM\n"),
    # torch/csrc/autograd/engine.cpp: backward in a forked child after backward in the parent
    "autograd-fork": (
        "Traceback (most recent call last):\n  File \"/venv/lib/python3.9/site-packages/torch/"
        "autograd/__init__.py\", line 226, in grad\n    return Variable._execution_engine."
        "run_backward(\nRuntimeError: Unable to handle autograd's threading in combination "
        "with fork-based multiprocessing. See https://github.com/pytorch/pytorch/wiki/"
        "Autograd-and-Fork\n",
        "multiprocessing start method: spawn (autograd ran in the parent before the pool)\n"),
    # torch/multiprocessing/reductions.py reduce_tensor
    "tensor-with-graph-sent-to-process": (
        TRACE + "    queue.put(out)\n  File \"/venv/lib/python3.10/site-packages/torch/"
        "multiprocessing/reductions.py\", line 154, in reduce_tensor\n    raise RuntimeError("
        "\"Cowardly refusing to serialize non-leaf tensor which requires_grad, \"\nRuntimeError: "
        "Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd does "
        "not support crossing process boundaries.  If you just want to transfer the data, call "
        "detach() on the tensor before serializing (e.g., putting it on the queue).\n",
        "put 64 detached tensors on the queue (non-leaf tensors are detached first)\n"),
    # Python 3.7 multiprocessing/reduction.py under spawn (Windows), the DataLoader's dataset
    "pickle-over-4gib-to-process": (
        "  File \"C:\\\\Anaconda3\\\\lib\\\\site-packages\\\\torch\\\\utils\\\\data\\\\dataloader.py\", "
        "line 278, in __iter__\n    return _MultiProcessingDataLoaderIter(self)\n  File "
        "\"C:\\\\Anaconda3\\\\lib\\\\multiprocessing\\\\reduction.py\", line 60, in dump\n"
        "    ForkingPickler(file, protocol).dump(obj)\nOverflowError: cannot serialize a bytes "
        "object larger than 4 GiB\n",
        "dataset of 5.2 GiB loaded in memory; workers started with fork\n"),
    # Python 3.6 multiprocessing/connection.py _send_bytes (a 32-bit length header)
    "mp-message-over-2gib": (
        "Traceback (most recent call last):\n  File \"/usr/lib/python3.6/multiprocessing/"
        "queues.py\", line 240, in _feed\n    send_bytes(obj)\n  File \"/usr/lib/python3.6/"
        "multiprocessing/connection.py\", line 393, in _send_bytes\n    header = struct.pack("
        "\"!i\", n)\nstruct.error: 'i' format requires -2147483648 <= number <= 2147483647\n",
        "batch of 1.9 GiB sent through the worker queue\n"),
    # DALI 0.2x (mixed ImageDecoder) through its TensorFlow plugin
    "dali-decoder-gpu-memory": (
        "tensorflow.python.framework.errors_impl.InternalError: DALI daliShareOutput(&pipeline_"
        "handle_) failed: Critical error in pipeline:\nError when executing Mixed operator "
        "ImageDecoder encountered:\nCan't allocate 129499136 bytes on device 0.\nCurrent "
        "pipeline object is no longer valid. [Op:IteratorGetNext]\n",
        "DALI pipeline built: ImageDecoder (mixed), device_memory_padding 211025920 bytes\n"),
    # Python's OSError on a dead FUSE mount (gcsfuse under a CSI driver)
    "fuse-mount-disconnected": (
        TRACE + "  File \"/usr/local/lib/python3.11/pathlib.py\", line 1116, in mkdir\n"
        "    os.mkdir(self, mode)\nOSError: [Errno 107] Transport endpoint is not connected: "
        "'/mnt/gcs/runs/exp1/checkpoints'\n",
        "gcsfuse mounted bucket runs at /mnt/gcs (transport: http, connected)\n"),
    # shutil.rmtree of multiprocessing's temp dir at exit, TMPDIR on NFS
    "nfs-silly-rename-busy": (
        "Traceback (most recent call last):\n  File \"/work/train.py\", line 212, in rotate\n"
        "    shutil.rmtree(oldest)\n  File \"/usr/lib/python3.10/shutil.py\", line 725, in "
        "rmtree\n    _rmtree_safe_fd(fd, path, onerror)\n  File \"/usr/lib/python3.10/shutil.py\", "
        "line 681, in _rmtree_safe_fd\n    os.unlink(entry.name, dir_fd=topfd)\nOSError: "
        "[Errno 16] Device or resource busy: '.nfs00000000160c011a00063458'\n",
        # a job script's clean-up after a run that finished
        "Training completed.\n+ rm -rf /home/u/tmp/job_4242\nrm: cannot remove '/home/u/tmp/"
        "job_4242/pymp-k2j3/.nfs000000000bd5a1ef00000e4a': Device or resource busy\n"),
    # Pillow PIL/ImageFile.py ImageFile.load, in a DataLoader worker
    "image-file-truncated": (
        "OSError: Caught OSError in DataLoader worker process 0.\nOriginal Traceback (most recent "
        "call last):\n  File \"/venv/lib/python3.7/site-packages/PIL/ImageFile.py\", line 249, in "
        "load\n    \"(%d bytes not processed)\" % len(b)\nOSError: image file is truncated (43 "
        "bytes not processed)\n",
        "ImageFile.LOAD_TRUNCATED_IMAGES = True: 3 image files were truncated and padded\n"),
    # Pillow 5.0+ PIL/Image.py _decompression_bomb_check
    "image-too-many-pixels": (
        TRACE + "  File \"/venv/lib/python3.6/site-packages/PIL/Image.py\", line 2507, in "
        "_decompression_bomb_check\n    (pixels, 2 * MAX_IMAGE_PIXELS))\nPIL.Image."
        "DecompressionBombError: Image size (220332032 pixels) exceeds limit of 178956970 "
        "pixels, could be decompression bomb DOS attack.\n",
        "Image.MAX_IMAGE_PIXELS = None; largest image 220332032 pixels\n"),
    # OpenCV 4.x imgproc color.cpp CV_Assert (cv2.imread returned None)
    "opencv-image-not-read": (
        TRACE + "    img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)\ncv2.error: OpenCV(4.5.3) /io/"
        "opencv/modules/imgproc/src/color.cpp:182: error: (-215:Assertion failed) "
        "!_src.empty() in function 'cvtColor'\n",
        "cv2.imread read 11800 images; none empty\n"),
    # datasets arrow_writer.py write_table (pyarrow's combine_chunks)
    "arrow-offset-overflow": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/datasets/arrow_writer.py\", line "
        "583, in write_table\n    pa_table = pa_table.combine_chunks()\n  File \"pyarrow/"
        "error.pxi\", line 91, in pyarrow.lib.check_status\npyarrow.lib.ArrowInvalid: offset "
        "overflow while concatenating arrays\n",
        "Map (num_proc=8, writer_batch_size=100): offsets of large_string column pixel_values\n"),
    # tokenizers (PyO3) through transformers' tokenization_utils_fast.py
    "tokenizer-shared-across-threads": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/transformers/tokenization_utils_"
        "fast.py\", line 368, in set_truncation_and_padding\n    self._tokenizer.no_truncation()"
        "\nRuntimeError: Already borrowed\n",
        "tokenizer already borrowed by thread 2; each thread now loads its own copy\n"),
    # OpenBLAS driver/others (its compiled NUM_THREADS)
    "openblas-thread-cap": (
        "OpenBLAS : Program will terminate because you tried to start too many threads.\n",
        "OpenBLAS: using 8 threads (OPENBLAS_NUM_THREADS=8); too many threads avoided\n"),
    # multiprocessing/connection.py Listener (DataLoader's resource_sharer) and Ray's sockets
    "unix-socket-path-too-long": (
        "Traceback (most recent call last):\n  File \"/usr/lib/python3.9/multiprocessing/"
        "resource_sharer.py\", line 126, in _start\n    self._listener = Listener(authkey="
        "process.current_process().authkey)\nOSError: AF_UNIX path too long\n",
        "TMPDIR=/tmp; AF_UNIX sockets under /tmp/pymp-3k2l9x (path length 38)\n"),
    # torch's DataLoader SIGCHLD handler, a worker that called abort()
    "dataloader-worker-aborted": (
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  "
        "basic_filebuf::underflow error reading the file\n" + TRACE + "RuntimeError: "
        "DataLoader worker (pid 2477) is killed by signal: Aborted. \n",
        "DataLoader worker (pid 2477) started; 8 workers, signal handlers set\n"),
    # Pillow 7+ PIL/Image.py open, in a DataLoader worker
    "image-unidentified": (
        "PIL.UnidentifiedImageError: Caught UnidentifiedImageError in DataLoader worker process "
        "0.\nOriginal Traceback (most recent call last):\n  File \"/venv/lib/python3.8/site-"
        "packages/PIL/Image.py\", line 2895, in open\n    raise UnidentifiedImageError(\nPIL."
        "UnidentifiedImageError: cannot identify image file <_io.BytesIO object at "
        "0x7fe11bd4ddb0>\n",
        "identify: 12000 image files checked, 0 unreadable\n"),
    # datasets utils/info_utils.py verify_splits
    "datasets-split-sizes-differ": (
        "  File \"/venv/lib/python3.10/site-packages/datasets/utils/info_utils.py\", line 100, "
        "in verify_splits\n    raise NonMatchingSplitsSizesError(str(bad_splits))\ndatasets."
        "utils.info_utils.NonMatchingSplitsSizesError: [{'expected': SplitInfo(name='test', "
        "num_bytes=1305088, num_examples=4358, shard_lengths=None, dataset_name=None), "
        "'recorded': SplitInfo(name='test', num_bytes=5176698, num_examples=17432, "
        "shard_lengths=None, dataset_name='parquet')}]\n",
        "SplitInfo(name='test', num_examples=4358) verified against the recorded sizes\n"),
    # torch/multiprocessing/reductions.py reduce_storage (torch 1.x: no errno in the line)
    # torch/lib/libshm/core.cpp (the manager's own loader error above it)
    "torch-shm-manager-failed": (
        "torch_shm_manager: error while loading shared libraries: libcudart.so.10.0: cannot open "
        "shared object file: No such file or directory\nTraceback (most recent call last):\n"
        "  File \"/venv/lib/python3.6/site-packages/torch/multiprocessing/reductions.py\", line "
        "314, in reduce_storage\n    metadata = storage._share_filename_()\nRuntimeError: error "
        "executing torch_shm_manager at \"/venv/lib/python3.6/site-packages/torch/bin/torch_shm_"
        "manager\" at /pytorch/torch/lib/libshm/core.cpp:99\n",
        "torch_shm_manager at /venv/lib/python3.6/site-packages/torch/bin started (pid 4410)\n"),
    # Python's sqlite3 module (a store written by every rank)
    "sqlite-database-locked": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/optuna/storages/_rdb/storage.py\", "
        "line 1237, in _create_scoped_session\n    session.commit()\nsqlite3.OperationalError: "
        "database is locked\n",
        "sqlite database unlocked after 0.4 s (journal_mode=wal)\n"),
    # h5py _selector.pyx reading a deflate-compressed dataset in a DataLoader worker
    "hdf5-read-failed": (
        "OSError: Caught OSError in DataLoader worker process 0.\nOriginal Traceback (most recent "
        "call last):\n  File \"/venv/lib/python3.8/site-packages/h5py/_hl/dataset.py\", line 758, "
        "in __getitem__\n    return self._fast_reader.read(args)\n  File \"h5py/_selector.pyx\", "
        "line 376, in h5py._selector.Reader.read\nOSError: Can't read data (inflate() failed)\n",
        "h5py: read data/train.h5 (deflate, 1200 chunks) in every worker\n"),
    # multiprocessing/reduction.py sendfds from resource_sharer's server thread
    "mp-handoff-bad-descriptor": (
        "Traceback (most recent call last):\n  File \"/usr/lib/python3.9/multiprocessing/"
        "resource_sharer.py\", line 145, in _serve\n    send(conn, destination_pid)\n  File "
        "\"/usr/lib/python3.9/multiprocessing/reduction.py\", line 149, in sendfds\n    "
        "sock.sendmsg([msg], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])\nOSError: [Errno 9] "
        "Bad file descriptor\n",
        "resource_sharer: sent 128 file descriptors to pid 4410\n"),
    # datasets builder.py download_and_prepare
    "datasets-not-enough-disk": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/datasets/builder.py\", line 872, in "
        "download_and_prepare\n    raise OSError(\nOSError: Not enough disk space. Needed: 134.92 "
        "GiB (download: 41.97 GiB, generated: 92.95 GiB, post-processed: Unknown size)\n",
        "Downloading and preparing dataset (download: 41.97 GiB, generated: 92.95 GiB); disk "
        "space checked\n"),
    "ray-worker-died": (
        TRACE + "    results = ray.get(futures)\nray.exceptions.ActorDiedError: The actor died "
        "unexpectedly before finishing this task.\n\tclass_name: WorkerDict\n\tactor_id: "
        "6a5d0c1e\nThe actor is dead because its worker process has died. Worker exit type: "
        "SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error "
        "code 2. End of file.\n",
        "(pid=4123) handling ray.exceptions.ActorDiedError by restarting the actor (max_restarts"
        "=3)\nstep 12 reward 0.41\n"),
    "tensorboard-distutils-version": (
        TRACE + "    from torch.utils.tensorboard import SummaryWriter\n  File \"/opt/conda/lib/"
        "python3.8/site-packages/torch/utils/tensorboard/__init__.py\", line 4, in <module>\n"
        "    LooseVersion = distutils.version.LooseVersion\n"
        "AttributeError: module 'distutils' has no attribute 'version'\n",
        "pinned setuptools==59.5.0 so distutils.version is available to torch 1.10\n"),
    "hub-download-truncated": (
        TRACE + "  File \"/usr/local/lib/python3.10/site-packages/huggingface_hub/file_download.py"
        "\", line 568, in http_get\n    raise EnvironmentError(\nOSError: Consistency check "
        "failed: file should be of size 4943162336 but has size 2147483648 "
        "(model-00001-of-00002.safetensors).\n",
        "consistency check passed: file size 4943162336 matches the Hub\n"),
    # Hydra's default output (no HYDRA_FULL_ERROR): run_and_report prints only the message
    "hydra-config-not-found": (
        "Cannot find primary config 'config'. Check that it's in your config search path.\n\n"
        "Config search path:\n\tprovider=hydra, path=pkg://hydra.conf\n\tprovider=main, "
        "path=file:///home/u/proj/configs\n\tprovider=schema, path=structured://\n\nSet the "
        "environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n",
        "loaded primary config 'config' from file:///home/u/proj/configs\n"),
    "omegaconf-missing-value": (
        "Error executing job with overrides: []\n" + TRACE + "omegaconf.errors.MissingMandatory"
        "Value: Missing mandatory value: model.backbone.ignore_last_stride\n"
        "    full_key: model.backbone.ignore_last_stride\n    object_type=dict\n",
        "model.backbone.ignore_last_stride: ??? (set on the command line below)\n"),
    "wandb-not-initialized-on-rank": (
        TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/wandb/sdk/lib/preinit.py\", "
        "line 36, in preinit_wrapper\n    raise wandb.Error(f\"You must call wandb.init() "
        "before {name}()\")\nwandb.errors.Error: You must call wandb.init() before wandb.log()\n",
        "wandb: logging from rank 0 only; wandb.init() ran before wandb.log on this rank\n"),
    "wandb-service-start-timeout": (
        TRACE + "wandb.sdk.service.service.ServiceStartTimeoutError: Timed out waiting for wandb "
        "service to start after 30.0 seconds. Try increasing the timeout with the "
        "`_service_wait` setting.\n",
        "wandb: service started after 2.1 seconds (WANDB__SERVICE_WAIT=300)\n"),
    "mlflow-param-changed": (
        TRACE + "mlflow.exceptions.MlflowException: Changing param values is not allowed. Param "
        "with key='logging_dir' was already logged with value='runs/a' for run ID='0a1b2c'. "
        "Attempted logging new value 'runs/b'.\n",
        "mlflow: logged 42 params for run ID='0a1b2c'\n"),
    "script-argument-missing": (
        "usage: train.py [-h] --model_name_or_path MODEL_NAME_OR_PATH\ntrain.py: error: the "
        "following arguments are required: --model_name_or_path\nE0110 10:00:00.000000 140 "
        "torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: 2) "
        "local_rank: 0 (pid: 141) of binary: /usr/bin/python\n",
        "usage: train.py [-h] --model_name_or_path MODEL_NAME_OR_PATH [--output_dir OUTPUT_DIR]\n"),
    "hdf5-file-locked": (
        TRACE + "    self.h5 = h5py.File(self.path, 'a')\nOSError: Unable to open file (unable "
        "to lock file, errno = 11, error message = 'Resource temporarily unavailable')\n",
        "opened data/train.h5 read-only in each worker (HDF5_USE_FILE_LOCKING=FALSE)\n"),
    "peft-merge-quantized-base": (
        TRACE + "    m = m.merge_and_unload()\n  File \"peft/tuners/lora.py\", line 352, in "
        "merge_and_unload\nValueError: Cannot merge LORA layers when the model is loaded in "
        "8-bit mode\n",
        "Merged the LoRA layers into the fp16 base model (it was loaded in 8-bit mode for training)\n"),
    "trainer-quantized-without-adapter": (
        TRACE + "    trainer = Trainer(\n  File \"transformers/trainer.py\", line 412, in __init__\n"
        "ValueError: You cannot perform fine-tuning on purely quantized models. Please attach "
        "trainable adapters on top of the quantized model to correctly perform fine-tuning.\n",
        "trainable params: 4,194,304 || all params: 3,504,607,232 (LoRA adapters on a 4-bit quantized model)\n"),
    "quantization-method-not-trainable": (
        TRACE + "    trainer = Trainer(\nValueError: The model you are trying to fine-tune is "
        "quantized with QuantizationMethod.FP8 but that quantization method do not support "
        "training. Please open an issue on GitHub\n",
        "The model is quantized with QuantizationMethod.BITS_AND_BYTES; training the LoRA adapter\n"),
    "bnb-kwarg-and-quantization-config": (
        TRACE + "    model = AutoModelForCausalLM.from_pretrained(name, load_in_4bit=True, "
        "quantization_config=bnb)\nValueError: You can't pass `load_in_4bit`or `load_in_8bit` "
        "as a kwarg when passing `quantization_config` argument at the same time.\n",
        "Loading the model with quantization_config=BitsAndBytesConfig(load_in_4bit=True)\n"),
    "gptq-exllama-modules-off-gpu": (
        TRACE + "    model = quantizer.post_init_model(model)\nValueError: Found modules on "
        "cpu/disk. Using Exllama or Exllamav2 backend requires all the modules to be on GPU.You "
        "can deactivate exllama backend by setting `disable_exllama=True`\n",
        "Using Exllamav2 backend: all the modules are on GPU (device_map={'': 0})\n"),
    "ulysses-heads-indivisible": (
        TRACE + "    assert cfg.num_heads % args.ulysses_size == 0, f\"`num_heads` must be "
        "divisible by `ulysses_size`.\"\nAssertionError: `num_heads` must be divisible by "
        "`ulysses_size`.\n",
        "ulysses_size=4 divides num_heads=40; ring_size=2\n"),
    "trl-packing-dataset-too-small": (
        TRACE + "    trainer = SFTTrainer(\n  File \"trl/trainer/sft_trainer.py\", line 623, in "
        "_prepare_packed_dataloader\nValueError: Error occurred while packing the dataset. Make "
        "sure that your dataset has enough samples to at least yield one packed sequence.\n",
        "Packing the dataset: 1,204 packed sequences of 2048 tokens\n"),
    "trl-completion-collator-with-packing": (
        TRACE + "    trainer = SFTTrainer(\nValueError: You passed a `DataCollatorForCompletionOnlyLM`"
        " to the SFTTrainer. This is not compatible with the `packing` argument.\n",
        "Using DataCollatorForCompletionOnlyLM with packing=False\n"),
    "gym-021-setuptools-too-new": (
        "Collecting gym==0.21.0\n  Preparing metadata (setup.py) ... error\n  error: "
        "subprocess-exited-with-error\n  × python setup.py egg_info did not run successfully.\n"
        "      error in gym setup command: 'extras_require' must be a dictionary whose values "
        "are strings or lists of strings containing valid project/version requirement "
        "specifiers.\nerror: metadata-generation-failed\n",
        "Successfully installed gym-0.21.0 setuptools-65.5.0 wheel-0.38.4\n"),
    "rsl-rl-version-mismatch": (
        TRACE + "  File \"/home/u/rsl_rl/rsl_rl/runners/on_policy_runner.py\", line 107, in "
        "learn\n    obs, privileged_obs, rewards, dones, infos = self.env.step(actions)\n"
        "ValueError: not enough values to unpack (expected 5, got 4)\n",
        "Learning iteration 120/1500 \n  Mean reward: 12.41\n  Mean episode length: 812.0\n"),
    "gym-step-reset-api-mismatch": (
        TRACE + "    next_state, reward, done, info = env.step(action)\n"
        "ValueError: too many values to unpack (expected 4)\n",
        "obs, reward, terminated, truncated, info = env.step(action)  # 5 values, gym 0.26\n"),
    "mujoco-py-ld-library-path-missing": (
        TRACE + "  File \"mujoco_py/builder.py\", line 103, in _ensure_set_env_var\n"
        "    raise Exception(\"\\nMissing path to your environment variable. \\n\"\nException: \n"
        "Missing path to your environment variable. \nCurrent values LD_LIBRARY_PATH=\n"
        "Please add following line to .bashrc:\n"
        "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/home/user/.mujoco/mujoco210/bin\n",
        "LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/home/user/.mujoco/mujoco210/bin\n"),
    "mujoco-py-gl-headers-missing": (
        "/home/user/mujoco-py/mujoco_py/gl/osmesashim.c:1:10: fatal error: GL/osmesa.h: No "
        "such file or directory\ncompilation terminated.\n" + TRACE
        + "distutils.errors.CompileError: command 'x86_64-linux-gnu-gcc' failed with exit "
        "status 1\n",
        "Setting up libosmesa6-dev (21.2.6-0ubuntu0.1) ... installs GL/osmesa.h\n"),
    "mujoco-py-cython3": (
        "Error compiling Cython file:\n    mju_user_warning = c_warning_callback\n"
        "/home/user/.local/lib/python3.10/site-packages/mujoco_py/cymj.pyx:92:23: Cannot "
        "assign type 'void (const char *) except * nogil' to 'void (*)(const char *) noexcept "
        "nogil'\nException: Cython.Compiler.Errors.CompileError: mujoco_py/cymj.pyx\n",
        "Compiling /home/user/.local/lib/python3.10/site-packages/mujoco_py/cymj.pyx with "
        "Cython 0.29.36\n"),
    "glfw-no-display": (
        "/usr/local/lib/python3.10/site-packages/glfw/__init__.py:916: GLFWError: (65544) "
        "b'X11: The DISPLAY environment variable is missing'\n  warnings.warn(message, "
        "GLFWError)\n" + TRACE + "    self._mjr_context = _render.MjrContext(\n"
        "mujoco.FatalError: gladLoadGL error\n",
        "MUJOCO_GL=egl: rendering off-screen, no X display needed\n"),
    "atari-roms-missing": (
        TRACE + "  File \"gym/envs/atari/environment.py\", line 152, in seed\n"
        "gym.error.Error: We're Unable to find the game \"Breakout\". Note: Gym no longer "
        "distributes ROMs. If you own a license to use the necessary ROMs for research "
        "purposes you can download them via `pip install gym[accept-rom-license]`.\n",
        "A.L.E: Arcade Learning Environment (version 0.8.1+53f58b7) [Powered by Stella] "
        "Game console created: Breakout\n"),
    "ale-namespace-not-registered": (
        TRACE + "  File \"gymnasium/envs/registration.py\", line 441, in _check_version_exists\n"
        "    _check_namespace_exists(ns)\ngymnasium.error.NamespaceNotFound: Namespace ALE not "
        "found. Have you installed the proper package for ALE?\n",
        "Registered namespace ALE: 104 environments (ale_py 0.10.1)\n"),
    "pyopengl-egl-library-not-loaded": (
        TRACE + "  File \"mujoco/egl/egl_ext.py\", line 46, in eglQueryDevicesEXT\n"
        "AttributeError: 'NoneType' object has no attribute 'eglQueryString'\n",
        "MUJOCO_GL=egl PYOPENGL_PLATFORM=egl: EGL device 0 selected\n"),
    "isaacgym-imported-after-torch": (
        TRACE + "  File \"isaacgym/gymdeps.py\", line 21, in _import_deps\n    raise "
        "ImportError(\"PyTorch was imported before isaacgym modules.  Please import torch "
        "after isaacgym modules.\")\nImportError: PyTorch was imported before isaacgym modules."
        "  Please import torch after isaacgym modules.\n",
        "Importing module 'gym_38' (isaacgym/_bindings/linux-x86_64/gym_38.so)\n"),
    "libpython-shared-library-missing": (
        TRACE + "    from isaacgym import gymapi\nImportError: libpython3.8.so.1.0: cannot "
        "open shared object file: No such file or directory\n",
        "Loaded libpython3.8.so.1.0 from /opt/conda/envs/rlgpu/lib\n"),
    "sb3-gym-env-needs-shimmy": (
        TRACE + "  File \"stable_baselines3/common/vec_env/patch_gym.py\", line 33, in "
        "_patch_env\nImportError: Missing shimmy installation. You provided an OpenAI Gym "
        "environment. Stable-Baselines3 (SB3) has transitioned to using Gymnasium internally."
        "\n",
        "Wrapping the env with shimmy's GymV26CompatibilityV0 (shimmy 2.0.0)\n"),
    "mujoco-gl-context-failed": (
        TRACE + "  File \"mujoco/renderer.py\", line 85, in __init__\n"
        "    self._mjr_context = _render.MjrContext(\nmujoco.FatalError: gladLoadGL error\n",
        "MjrContext created: OpenGL 4.6 (EGL), gladLoadGL ok\n"),
    "egl-not-initialized": (
        TRACE + "  File \"mujoco/egl/__init__.py\", line 117, in __init__\n    display = "
        "create_initialized_egl_device_display()\nOpenGL.raw.EGL._errors.EGLError: EGLError(\n"
        "\terr = EGL_NOT_INITIALIZED,\n\tbaseOperation = eglInitialize,\n\tcArguments = (\n"
        "\t),\n\tresult = 0\n)\n",
        "Evaluation finished: success rate 0.92\nException ignored in: <function "
        "EGLGLContext.__del__ at 0x7f3f>\nTraceback (most recent call last):\n  File "
        "\"robosuite/renderers/context/egl_context.py\", line 155, in free\n"
        "OpenGL.raw.EGL._errors.EGLError: EGLError(\n\terr = EGL_NOT_INITIALIZED,\n"
        "\tbaseOperation = eglMakeCurrent,\n\tcArguments = (\n\t),\n\tresult = 0\n)\n"),
    "deepspeed-moe-param-groups-unmarked": (
        TRACE + "  File \"deepspeed/runtime/engine.py\", line 1201, in _configure_optimizer\n"
        "    assert any(\nAssertionError: The model has moe layers, but None of the param groups "
        "are marked as MoE. Create a param group with 'moe' key set to True before creating "
        "optimizer\n",
        "Created param groups: 2 (1 marked as MoE: expert parameters)\n"),
    "deepspeed-moe-zero3-unsupported": (
        TRACE + "  File \"deepspeed/runtime/engine.py\", line 1575, in _configure_zero_optimizer\n"
        "    assert not self.has_moe_layers, \"MoE not supported with Stage 3\"\n"
        "AssertionError: MoE not supported with Stage 3\n",
        "MoE layers found: 8 experts, ZeRO stage 2 with expert parallel size 4\n"),
    "rope-scaling-config-too-new": (
        TRACE + "  File \"transformers/models/llama/configuration_llama.py\", line 182, in "
        "_rope_scaling_validation\n    raise ValueError(\nValueError: `rope_scaling` must be a "
        "dictionary with two fields, `type` and `factor`, got {'factor': 8.0, 'low_freq_factor': "
        "1.0, 'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192, 'rope_type': "
        "'llama3'}\n",
        "Unrecognized keys in `rope_scaling` for 'rope_type'='llama3': {'original_max_position_embeddings'}\n"),
    "flash-attn-head-size-unsupported": (
        TRACE + "    out, q, k, v, out_padded, softmax_lse, S_dmask = flashattn_hopper_cuda.fwd(\n"
        "RuntimeError: Only support head size 64, 128, and 256 for now\n",
        "FlashAttention-3: head size 128 supported, using flashattn_hopper_cuda\n"),
    "loss-input-target-batch-mismatch": (
        TRACE + "  File \"torch/nn/functional.py\", line 3029, in cross_entropy\n    return "
        "torch._C._nn.cross_entropy_loss(\nValueError: Expected input batch_size (103) to match "
        "target batch_size (95).\n",
        "input batch_size 8 matches target batch_size 8; loss 2.31\n"),
    "rocm-runtime-out-of-resources": (
        ":0:rocdevice.cpp            :2652: 4238358292712 us: 48946: [tid:0x7fffd023f700] "
        "Device::callbackQueue aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The "
        "runtime failed to allocate the necessary resources. This error may also occur when "
        "the core runtime library needs to spawn threads or create internal OS-specific "
        "events. code: 0x1008\nAborted (core dumped)\n",
        "ROCk module is loaded\nHSA System Attributes: Runtime Version 1.14\n"),
    # Hugging Face loading, FlashAttention-2's padding guard, TRL, Unsloth, verl, vLLM in RL
    # rollouts, Hydra, LLaMA-Factory (census of RL / post-training stacks)
    "tokenizer-class-unknown": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/transformers/models/auto/"
        "tokenization_auto.py\", line 724, in from_pretrained\n    raise ValueError(\n"
        "ValueError: Tokenizer class Qwen2Tokenizer does not exist or is not currently "
        "imported.\n",
        "loaded tokenizer class Qwen2TokenizerFast from /models/Qwen2-7B (vocab 151643)\n"),
    "vision-model-loaded-as-causal-lm": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/transformers/models/auto/"
        "auto_factory.py\", line 567, in from_pretrained\n    raise ValueError(\n"
        "ValueError: Unrecognized configuration class <class 'transformers.models.qwen2_5_vl."
        "configuration_qwen2_5_vl.Qwen2_5_VLConfig'> for this kind of AutoModel: "
        "AutoModelForCausalLM.\nModel type should be one of AriaTextConfig, BambaConfig, "
        "BartConfig, BertConfig, ...\n",
        "loaded Qwen2_5_VLConfig with AutoModelForImageTextToText (policy and reference)\n"),
    "flash-attn-right-padding-with-cache": (
        TRACE + "  File \"/home/user/X-R1/src/x_r1/x_grpo_trainer.py\", line 392, in "
        "_get_per_token_logps\n    logits = model(input_ids=input_ids, attention_mask="
        "attention_mask).logits\n  File \"/venv/lib/python3.10/site-packages/transformers/"
        "models/qwen2/modeling_qwen2.py\", line 655, in _update_causal_mask\n    raise "
        "ValueError(\nValueError: You are attempting to perform batched generation with "
        "padding_side='right' this may lead to unexpected behaviour for Flash Attention "
        "version of Qwen2. Make sure to  call `tokenizer.padding_side  = 'left'` before "
        "tokenizing the input.\n",
        "attn_implementation=flash_attention_2, padding_side='left' for generation, "
        "use_cache=False for training\n"),
    "trl-too-old-for-processing-class": (
        TRACE + "  File \"/home/user/dpo.py\", line 20, in dpo_training\n    trainer = "
        "DPOTrainer(model=model, args=training_args, processing_class=tokenizer)\nTypeError: "
        "DPOTrainer.__init__() got an unexpected keyword argument 'processing_class'\n",
        "DPOTrainer initialised with processing_class=Qwen2TokenizerFast (trl 0.12.1)\n"),
    "trl-sft-text-field-missing": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/trl/trainer/sft_trainer.py\", "
        "line 270, in __init__\n    raise ValueError(\nValueError: You passed `packing=False` "
        "to the SFTTrainer/SFTConfig, but you didn't pass a `dataset_text_field` or "
        "`formatting_func` argument.\n",
        "SFTConfig: packing=False, dataset_text_field='text', max_seq_length=2048\n"),
    "trl-dpo-ref-model-with-peft": (
        TRACE + "  File \"/usr/local/lib/python3.10/dist-packages/trl/trainer/dpo_trainer.py\", "
        "line 219, in __init__\n    raise ValueError(\nValueError: You passed both a ref_model "
        "and a peft_config. For training PEFT adapters with DPO there is no need to pass a "
        "reference model. Please pass `ref_model=None` in case you want to train PEFT adapters, "
        "or pass a ref_model with `force_use_ref_model=True` in DPOTrainer's init. if you want "
        "to use a different ref_model.\n",
        "DPOTrainer: peft_config given, ref_model=None (reference = base model, adapters off)\n"),
    "trl-grpo-prompt-column-missing": (
        TRACE + "    trainer.train()\n  File \"/usr/local/lib/python3.10/dist-packages/trl/"
        "trainer/grpo_trainer.py\", line 583, in _prepare_inputs\n    prompts = "
        "[x[\"prompt\"] for x in inputs]\nKeyError: 'prompt'\n",
        "dataset columns: ['prompt', 'answer'] (remove_unused_columns=False)\n"),
    "unsloth-grpo-without-fast-inference": (
        TRACE + "  File \"/data/scripts/unsloth_compiled_cache/UnslothGRPOTrainer.py\", line "
        "857, in __init__\n    self.llm = model.vllm_engine; self._last_loaded_step = 0\n"
        "  File \"/venv/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1928, "
        "in __getattr__\n    raise AttributeError(f\"'{type(self).__name__}' object has no "
        "attribute '{name}'\")\nAttributeError: 'Qwen2ForCausalLM' object has no attribute "
        "'vllm_engine'\n",
        "Unsloth: vLLM loading /models/Qwen2.5-3B with fast_inference=True, vllm_engine ready\n"),
    "verl-prompt-longer-than-max": (
        "Original Traceback (most recent call last):\n  File \"/workspace/verl/verl/utils/"
        "dataset/rl_dataset.py\", line 191, in __getitem__\n    input_ids, attention_mask = "
        "verl_F.tokenize_and_postprocess_data(prompt=prompt_with_chat_template,\n  File "
        "\"/workspace/verl/verl/utils/torch_functional.py\", line 295, in "
        "tokenize_and_postprocess_data\n    raise NotImplementedError(f'{sequence_length=} is "
        "larger than {max_length=}')\nNotImplementedError: sequence_length=1081 is larger than "
        "max_length=1024\n",
        "filter overlong prompts: kept 7421 of 7473 (max_length=1024)\n"),
    "verl-reward-data-source-unknown": (
        TRACE + "  File \"/workspace/verl/verl/workers/reward_manager/naive.py\", line 88, in "
        "__call__\n    score = self.compute_score(\n  File \"/workspace/verl/verl/utils/"
        "reward_score/__init__.py\", line 106, in default_compute_score\n    raise "
        "NotImplementedError(f\"Reward function is not implemented for {data_source=}\")\n"
        "NotImplementedError: Reward function is not implemented for data_source=''\n",
        "reward function for data_source='openai/gsm8k': gsm8k.compute_score\n"),
    "verl-data-not-preprocessed": (
        "ray.exceptions.RayTaskError(KeyError): ray::TaskRunner.run() (pid=221840, ip=172.31."
        "45.209)\n  File \"/workspace/verl/verl/trainer/ppo/ray_trainer.py\", line 627, in "
        "_validate\n    result = self.val_reward_fn(test_batch, return_dict=True)\n  File "
        "\"/workspace/verl/verl/workers/reward_manager/naive.py\", line 70, in __call__\n"
        "    ground_truth = data_item.non_tensor_batch[\"reward_model\"][\"ground_truth\"]\n"
        "KeyError: 'reward_model'\n",
        "dataset columns: data_source, prompt, ability, reward_model, extra_info\n"),
    "verl-micro-batch-size-unset": (
        TRACE + "  File \"/workspace/verl/verl/trainer/main_ppo.py\", line 64, in run\n"
        "    check_mutually_exclusive(config.actor_rollout_ref.actor.ppo_micro_batch_size,\n"
        "ValueError: [actor] Please set at least one of 'actor.ppo_micro_batch_size' or "
        "'actor.ppo_micro_batch_size_per_gpu'.\n",
        "actor.ppo_micro_batch_size_per_gpu=4 (ppo_micro_batch_size unset: deprecated)\n"),
    "verl-vllm-version-unsupported": (
        TRACE + "  File \"/workspace/verl/verl/third_party/vllm/__init__.py\", line 49, in "
        "<module>\n    raise ValueError(\nValueError: vllm version 0.6.3.post1 not supported. "
        "Currently supported versions are 0.3.1, 0.4.2, 0.5.4, 0.6.3 and 0.7.0+\n",
        "vllm version 0.6.3 found: using verl.third_party.vllm.vllm_v_0_6_3\n"),
    "vllm-batched-tokens-below-model-len": (
        "(main_task pid=3523385)   File \"/usr/local/lib/python3.10/dist-packages/vllm/"
        "config.py\", line 1178, in _verify_args\n(main_task pid=3523385)     raise ValueError(\n"
        "(main_task pid=3523385) ValueError: max_num_batched_tokens (8192) is smaller than "
        "max_model_len (9216). This effectively limits the maximum sequence length to "
        "max_num_batched_tokens and makes vLLM reject longer sequences. Please increase "
        "max_num_batched_tokens or decrease max_model_len.\n",
        "INFO config.py:1208 Chunked prefill is enabled with max_num_batched_tokens=8192.\n"),
    "vllm-v1-engine-internals": (
        "[rank0]: Traceback (most recent call last):\n[rank0]:   File \"/usr/local/lib/"
        "python3.10/dist-packages/trl/trainer/grpo_trainer.py\", line 755, in "
        "_move_model_to_vllm\n[rank0]:     llm_model = self.llm.llm_engine.model_executor."
        "driver_worker.model_runner.model\n[rank0]: AttributeError: 'LLMEngine' object has no "
        "attribute 'model_executor'\n",
        "INFO 04-10 12:00:01 llm_engine.py:234 Initializing a V0 LLM engine (v0.8.3) with "
        "model_executor=UniProcExecutor\n"),
    "vllm-sleep-mode-expandable-segments": (
        "(WorkerDict pid=12345) Traceback (most recent call last):\n(WorkerDict pid=12345)   "
        "File \"/usr/local/lib/python3.10/dist-packages/vllm/device_allocator/cumem.py\", line "
        "153, in __init__\n(WorkerDict pid=12345)     assert \"expandable_segments:True\" not "
        "in conf, \\\n(WorkerDict pid=12345) AssertionError: Expandable segments are not "
        "compatible with memory pool. Please track https://github.com/pytorch/pytorch/issues/"
        "147851 for the latest updates.\n",
        "(WorkerDict pid=12345) INFO sleep mode enabled, PYTORCH_CUDA_ALLOC_CONF unset for "
        "the rollout\n"),
    "hydra-override-key-missing": (
        "+ python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo "
        "actor_rollout_ref.rollout.n=16\nCould not override 'actor_rollout_ref.rollout.n'.\n"
        "To append to your config use +actor_rollout_ref.rollout.n=16\nKey 'n' is not in "
        "struct\n    full_key: actor_rollout_ref.rollout.n\n    object_type=dict\n\nSet the "
        "environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n",
        "[2025-03-01 10:00:00,123][__main__][INFO] - overrides: actor_rollout_ref.rollout.n=16 "
        "(struct mode)\n"),
    "llamafactory-dataset-undefined": (
        TRACE + "  File \"/kaggle/working/LLaMA-Factory/src/llamafactory/data/parser.py\", "
        "line 129, in get_dataset_list\n    raise ValueError(f\"Undefined dataset {name} in "
        "{DATA_CONFIG}.\")\nValueError: Undefined dataset mllm_demo in dataset_info.json.\n",
        "[INFO|loader.py:50] Loading dataset mllm_demo.json (registered in dataset_info.json)\n"),
    "llamafactory-no-valid-samples": (
        TRACE + "  File \"/work/LLaMA-Factory/src/llamafactory/data/loader.py\", line 189, in "
        "get_dataset\n    raise RuntimeError(\"Cannot find valid samples, check "
        "`data/README.md` for the data format.\")\nRuntimeError: Cannot find valid samples, "
        "check `data/README.md` for the data format.\n",
        "[INFO|loader.py:180] Converting format of dataset: 5000 valid samples (see "
        "data/README.md)\n"),
    "vllm-weights-not-found": (
        "(RayWorkerVllm pid=1842765) ERROR 04-24 09:33:04 ray_utils.py:44]   File \"/usr/local/"
        "lib/python3.10/dist-packages/vllm/model_executor/model_loader/loader.py\", line 191, "
        "in _prepare_weights\n(RayWorkerVllm pid=1842765) ERROR 04-24 09:33:04 ray_utils.py:44]"
        "     raise RuntimeError(\n(RayWorkerVllm pid=1842765) ERROR 04-24 09:33:04 "
        "ray_utils.py:44] RuntimeError: Cannot find any model weights with `/models/"
        "checkpoints/global_step_100/actor/huggingface`\n",
        "INFO 04-24 09:33:04 weight_utils.py:281 Using model weights format ['*.safetensors']\n"),
    "rocm-memory-access-fault": (
        "Memory access fault by GPU node-1 (Agent handle: 0x55eb9b596570) on address "
        "0x7f66960b2000. Reason: Page not present or supervisor privilege.\n"
        "Aborted (core dumped)\n",
        "GPU node-1 (Agent handle: 0x55eb9b596570): gfx90a, 64 compute units\n"),
    # Triton's tensorrtllm_backend (model_instance_state.cc) reading an engine's config.json
    "trtllm-backend-engine-config": (
        "E1114 17:20:34.602436 37 backend_model.cc:634] ERROR: Failed to create instance: "
        "unexpected error when creating modelInstanceState: [json.exception.out_of_range.403] "
        "key 'builder_config' not found\nE1114 17:20:34.602463 37 model_lifecycle.cc:621] "
        "failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating "
        "modelInstanceState: [json.exception.out_of_range.403] key 'builder_config' not found\n"
        "error: creating server: Internal - failed to load all models\n",
        "I1114 17:20:34.602436 37 model_lifecycle.cc:818] successfully loaded 'tensorrt_llm' "
        "version 1\n"),
    # TGI's text_generation_server/models/__init__.py get_model, under the launcher
    "tgi-sharding-unsupported": (
        "2023-08-02T07:04:30.144859Z ERROR shard-manager: text_generation_launcher: Error when "
        "initializing model\nTraceback (most recent call last):\n  File \"/opt/conda/lib/"
        "python3.9/site-packages/text_generation_server/models/__init__.py\", line 291, in "
        "get_model\n    raise ValueError(\"sharded is not supported for AutoModel\")\n"
        "ValueError: sharded is not supported for AutoModel\n",
        "2023-08-02T07:04:30.144859Z  INFO text_generation_launcher: Sharding model on 2 "
        "processes\n"),
    # vLLM (config.py _verify_quantization): AWQ's kernels take float16 only
    "quantization-dtype-unsupported": (
        "  File \"/work/vllm/vllm/model_executor/model_loader.py\", line 84, in get_model\n"
        "    raise ValueError(\nValueError: torch.bfloat16 is not supported for quantization "
        "method awq. Supported dtypes: [torch.float16]\n",
        "WARNING 03-01 10:12:44 config.py:1230] Casting torch.bfloat16 to torch.float16 "
        "(quantization method awq).\n"),
    # NVSHMEM 3.x (host/transport/transport.cpp, ibgda.cpp) under SGLang's DeepEP
    "nvshmem-no-gpudirect-rdma": (
        "/sgl-workspace/nvshmem/src/modules/transport/ibgda/ibgda.cpp:nvshmemt_init:3626: "
        "neither nv_peer_mem, or nvidia_peermem detected. Skipping transport.\n"
        "/sgl-workspace/nvshmem/src/host/transport/transport.cpp:nvshmemi_transport_init:275: "
        "init failed for transport: IBGDA\n/sgl-workspace/nvshmem/src/host/transport/"
        "transport.cpp:nvshmemi_transport_init:287: Unable to initialize any transports. "
        "returning error.\n/sgl-workspace/nvshmem/src/host/init/init.cu:995: non-zero status: 7 "
        "nvshmem detect topo failed\n\n/sgl-workspace/nvshmem/src/host/init/init.cu:"
        "nvshmemi_check_state_and_init:1080: nvshmem initialization failed, exiting\n",
        # a transport skipped while another one works: the run goes on
        "/sgl-workspace/nvshmem/src/modules/transport/ibgda/ibgda.cpp:nvshmemt_init:3626: "
        "neither nv_peer_mem, or nvidia_peermem detected. Skipping transport.\n"
        "[2025-05-02 10:11:40 TP0] Load weight end. mem usage=14.99 GB.\n"),
    # TGI's launcher (launcher/src/main.rs) checking its token limits
    "tgi-token-limits-invalid": (
        "2024-06-01T10:00:00.000000Z  INFO text_generation_launcher: Using default cuda graphs "
        "[1, 2, 4, 8, 16, 32]\nError: ArgumentValidation(\"`max_input_tokens`(65537) must be < "
        "`max_total_tokens`(65536)\")\n",
        "2024-06-01T10:00:00.000000Z  INFO text_generation_launcher: Default "
        "`max_batch_prefill_tokens` to 4146\n"),
    # DeepEP (csrc/deep_ep.cpp) under Megatron's or SGLang's expert parallelism
    "deepep-dispatch-timeout": (
        "[rank428]:   File \"/opt/venv/lib/python3.12/site-packages/deep_ep/buffer.py\", line "
        "581, in internode_dispatch\n[rank428]:     recv_src_meta, send_rdma_head, "
        "send_nvl_head, event = self.runtime.internode_dispatch(\n[rank428]: RuntimeError: "
        "DeepEP error: timeout (dispatch CPU)\n",
        "[rank0]: DeepEP buffer: 24 SMs, dispatch timeout 100 s, NVSHMEM 3.3.9\n"),
    # TGI's text_generation_server/utils/weights.py get_filename
    "tgi-weight-not-found": (
        "  File \"/opt/conda/lib/python3.10/site-packages/text_generation_server/utils/"
        "weights.py\", line 63, in get_filename\n    raise RuntimeError(f\"weight {tensor_name} "
        "does not exist\")\nRuntimeError: weight model.layers.0.self_attn.q_proj.weight does "
        "not exist\n\n2024-02-29T03:25:57.928974Z ERROR text_generation_launcher: Error when "
        "initializing model\n",
        "2024-02-29T03:25:57.928974Z  INFO text_generation_launcher: weight "
        "model.embed_tokens.weight loaded from model-00001-of-00002.safetensors\n"),
    # Mooncake's rdma_context.cpp and SGLang's disaggregation/mooncake/transfer_engine.py
    "mooncake-memory-registration-failed": (
        "E0605 10:48:27.885119 10136 rdma_context.cpp:203] Failed to register memory "
        "0x7b375b400000: Invalid argument [22]\n[2025-06-05 10:48:27 TP7] Scheduler hit an "
        "exception: Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/"
        "sglang/srt/disaggregation/mooncake/transfer_engine.py\", line 36, in register\n"
        "    raise RuntimeError(\"Mooncake memory registration failed.\")\nRuntimeError: "
        "Mooncake memory registration failed.\n",
        "I0605 10:48:27.542429 10134 rdma_context.cpp:125] RDMA device: mlx5_0, LID: 1698, GID: "
        "(GID_Index 0) fe:80:00:00:00:00:00:00:00:15:5d:ff:fd:34:02:2b\n"),
    # SGLang's scheduler self-check (managers/scheduler.py check_memory)
    "sglang-kv-pool-leak": (
        "[2025-10-20 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call "
        "last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line "
        "1500, in check_memory\n    raise ValueError(msg)\nValueError: "
        "token_to_kv_pool_allocator memory leak detected! self.max_total_num_tokens=270331, "
        "available_size=644, evictable_size=269628, protected_size=0\n",
        "[2025-10-20 10:00:00 TP0] KV Cache is allocated. #tokens: 270331, K size: 16.50 GB, "
        "V size: 16.50 GB\n"),
    # Triton's python_backend (python_be.cc): the stub process's health check
    "triton-python-stub-unhealthy": (
        "E0414 10:01:12.123456 1 model_lifecycle.cc:641] \"failed to load "
        "'multimodal_encoders' version 1: Internal: Stub process 'multimodal_encoders_0_0' is "
        "not healthy.\"\nerror: creating server: Internal - failed to load all models\n",
        "I0414 10:01:12.123456 1 python_be.cc:2100] TRITONBACKEND_ModelInstanceInitialize: "
        "multimodal_encoders_0_0 (GPU device 0)\n"),
    # Ray Serve's controller (serve/_private/deployment_state.py), repeated while it waits
    "ray-serve-replicas-unscheduled": (
        "(ServeController pid=7655) WARNING deployment_state.py:1145 -- Deployment 'f' has 1 "
        "replicas that have taken more than 30s to be scheduled. This may be caused by waiting "
        "for the cluster to auto-scale, or waiting for a runtime environment to install. "
        "Resources required for each replica: {'CPU': 1, 'GPU': 1}, resources available: "
        "{'CPU': 16.0}.\n" + TRACE + "    wait_for_application_running(app_name, timeout_s=600)\n"
        "TimeoutError: Application 'default' did not become RUNNING within 600 s\n",
        "(ServeController pid=7655) INFO deployment_state.py:1300 -- Adding 1 replica to "
        "deployment 'f'.\n"),
    "nfs-stale-file-handle": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/datasets/arrow_dataset.py\", line "
        "3163, in _map_single\n    os.chmod(cache_file_name, 0o666 & ~umask)\nOSError: "
        "[Errno 116] Stale file handle: '/mnt/nfs/cache/train/cache-1a2b.arrow'\n",
        "cache on /mnt/nfs: file handles refreshed after the remount, training resumed\n"),
    # torch/csrc/utils/tensor_numpy.cpp: .numpy() of a bf16 model's predictions
    "bf16-to-numpy": (
        TRACE + "    preds = logits.argmax(-1).cpu().numpy()\n    probs = logits.softmax(-1)"
        ".cpu().numpy()\nTypeError: Got unsupported ScalarType BFloat16\n",
        "eval: converted logits from torch.bfloat16 to float32 before numpy; accuracy 0.81\n"),
    # aten/src/ATen/Context.cpp alertCuBLASConfigNotDeterministic (torch 2.x)
    "deterministic-cublas-workspace": (
        TRACE + "    out = self.fc(x)\n  File \"/venv/lib/python3.10/site-packages/torch/nn/"
        "modules/linear.py\", line 114, in forward\n    return F.linear(input, self.weight, "
        "self.bias)\nRuntimeError: Deterministic behavior was enabled with either "
        "`torch.use_deterministic_algorithms(True)` or `at::Context::setDeterministicAlgorithms"
        "(true)`, but this operation is not deterministic because it uses CuBLAS and you have "
        "CUDA >= 10.2. To enable deterministic behavior in this case, you must set an "
        "environment variable before running your PyTorch application: "
        "CUBLAS_WORKSPACE_CONFIG=:4096:8 or CUBLAS_WORKSPACE_CONFIG=:16:8. For more "
        "information, go to https://docs.nvidia.com/cuda/cublas/index.html#results-"
        "reproducibility\n",
        # warn_only=True: the same words as a warning, and training goes on
        "/venv/lib/python3.10/site-packages/torch/nn/modules/linear.py:114: UserWarning: "
        "Deterministic behavior was enabled with either `torch.use_deterministic_algorithms"
        "(True)` or `at::Context::setDeterministicAlgorithms(true)`, but this operation is not "
        "deterministic because it uses CuBLAS and you have CUDA >= 10.2. (Triggered "
        "internally at ../aten/src/ATen/Context.cpp:156.)\n  return F.linear(input, "
        "self.weight, self.bias)\nstep 10 loss 2.31\nstep 20 loss 2.12\n"),
    # aten/src/ATen/Context.cpp alertNotDeterministic (torch 1.8 .. 2.x)
    "deterministic-op-unsupported": (
        TRACE + "    loss.backward()\nRuntimeError: scatter_add_cuda_kernel does not have a "
        "deterministic implementation, but you set 'torch.use_deterministic_algorithms(True)'. "
        "You can turn off determinism just for this operation, or you can use the "
        "'warn_only=True' option, if that's acceptable for your application. You can also "
        "file an issue at https://github.com/pytorch/pytorch/issues to help us prioritize "
        "adding deterministic support for this operation.\n",
        "UserWarning: scatter_add_cuda_kernel does not have a deterministic implementation, but "
        "you set 'torch.use_deterministic_algorithms(True, warn_only=True)'. You can turn off "
        "determinism just for this operation, or you can use the 'warn_only=True' option, if "
        "that's acceptable for your application.\nstep 10 loss 2.31\nstep 20 loss 2.12\n"),
    # aten/src/ATen/Context.cpp (torch 2.9): inductor reading allow_tf32 after the new API
    "tf32-api-mixed": (
        TRACE + "    loss = compiled(x).sum()\ntorch._inductor.exc.InductorError: "
        "LoweringException: RuntimeError: PyTorch is checking whether allow_tf32 is enabled "
        "for cuBlas matmul,Current status indicate that you have used mix of the legacy and "
        "new APIs to set the TF32 status for cublas matmul. We suggest only using the new API "
        "to set the TF32 flag. See also: https://pytorch.org/docs/main/notes/cuda.html#"
        "tensorfloat-32-tf32-on-ampere-and-later-devices\n",
        "TF32 status for cublas matmul: fp32_precision='tf32' (new API only, legacy allow_tf32 "
        "untouched)\n"),
    # c10/cuda/CUDAAllocatorConfig.cpp on torch 2.0 with expandable_segments
    "alloc-conf-unrecognized": (
        TRACE + "    model.cuda()\n  File \"/venv/lib/python3.10/site-packages/torch/cuda/"
        "__init__.py\", line 247, in _lazy_init\n    torch._C._cuda_init()\nRuntimeError: "
        "Unrecognized CachingAllocator option: expandable_segments\n",
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (CachingAllocator option recognized, "
        "torch 2.4)\n"),
    # torch/utils/data/_utils/pin_memory.py: the pin-memory thread's error re-raised
    "pin-memory-host-oom": (
        TRACE + "    for step, (inputs, targets) in enumerate(loader):\n  File \"/venv/lib/"
        "python3.10/site-packages/torch/_utils.py\", line 694, in reraise\n    raise "
        "exception\nRuntimeError: Caught RuntimeError in pin memory thread for device 0.\n"
        "Original Traceback (most recent call last):\n  File \"/venv/lib/python3.10/"
        "site-packages/torch/utils/data/_utils/pin_memory.py\", line 37, in do_one_step\n"
        "    data = pin_memory(data, device)\n  File \"/venv/lib/python3.10/site-packages/"
        "torch/utils/data/_utils/pin_memory.py\", line 79, in pin_memory\n    return "
        "data.pin_memory(device)\nRuntimeError: CUDA error: out of memory\nCUDA kernel errors "
        "might be asynchronously reported at some other API call, so the stacktrace below "
        "might be incorrect.\n",
        "DataLoader: pin_memory=True, 8 workers; pinned 2.1 GiB of host memory, no out of "
        "memory\n"),
    # transformers modeling_utils.py gradient_checkpointing_enable
    "gradient-checkpointing-unsupported": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/transformers/modeling_utils.py\", "
        "line 1584, in gradient_checkpointing_enable\n    raise ValueError(f\"{self.__class__"
        ".__name__} does not support gradient checkpointing.\")\nValueError: "
        "ChatGLMForConditionalGeneration does not support gradient checkpointing.\n",
        # LLaMA-Factory's warning: it goes on without it
        "[WARNING|2024-05-01 10:00:00] llamafactory.model.model_utils.checkpointing:  Current "
        "model does not support gradient checkpointing.\n{'loss': 1.92, 'grad_norm': 0.8, "
        "'learning_rate': 2e-05, 'epoch': 0.1}\n"),
    # torch < 2.1 torch/nn/modules/_functions.py (SyncBatchNorm) in a .half() model
    "syncbn-fp16-counts": (
        TRACE + "  File \"/venv/lib/python3.8/site-packages/torch/nn/modules/_functions.py\", "
        "line 56, in forward\n    counts.view(-1),\nRuntimeError: Expected counts to have "
        "type Half but got Float\n",
        "SyncBatchNorm: counts gathered in float32, running stats in float32\n"),
    # aten/src/ATen/cudnn/Exceptions.h on a permuted input
    "cudnn-not-supported": (
        TRACE + "    x = self.conv(x.permute(0, 3, 1, 2))\n  File \"/venv/lib/python3.10/"
        "site-packages/torch/nn/modules/conv.py\", line 456, in _conv_forward\n    return "
        "F.conv2d(input, weight, bias, self.stride,\nRuntimeError: cuDNN error: "
        "CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous "
        "input.\n",
        "cudnn: benchmark=True, status supported for all 12 convolution shapes\n"),
    # c10/cuda/CUDAException.h: a launch whose grid came from a large batch
    "cuda-invalid-configuration": (
        TRACE + "    out = ext.forward(points, feats)\nRuntimeError: CUDA error: invalid "
        "configuration argument\nCUDA kernel errors might be asynchronously reported at some "
        "other API call, so the stacktrace below might be incorrect.\nFor debugging consider "
        "passing CUDA_LAUNCH_BLOCKING=1.\n",
        "launch configuration: grid (1024, 1, 1), block (256, 1, 1); valid configuration "
        "argument checked\n"),
    # sklearn/utils/validation.py on NaN predictions at evaluation
    "sklearn-input-nan": (
        TRACE + "    auc = roc_auc_score(labels, scores)\n  File \"/venv/lib/python3.10/"
        "site-packages/sklearn/utils/validation.py\", line 161, in _assert_all_finite\n    raise "
        "ValueError(msg_err)\nValueError: Input contains NaN, infinity or a value too large "
        "for dtype('float32').\n",
        "eval: scores checked, input contains no NaN; auc 0.91\n"),
    "cuda-unknown-error": (
        TRACE + "    loss.backward()\nRuntimeError: CUDA error: unknown error\nCUDA kernel "
        "errors might be asynchronously reported at some other API call, so the stacktrace "
        "below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n",
        "unknown error count: 0; CUDA errors: none\n"),
    # Windows, macOS and notebook runs: CPython, Apple's objc4, Colab, libnvidia-container
    "macos-objc-fork-safety": (
        "objc[3067]: +[__NSCFConstantString initialize] may have been in progress in another "
        "thread when fork() was called. We cannot safely call it or ignore it in the fork() "
        "child process. Crashing instead. Set a breakpoint on objc_initializeAfterForkError to "
        "debug.\ntorch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with "
        "signal SIGABRT\n",
        "objc[3067]: Class AVFFrameReceiver is implemented in both libavdevice.dylib and "
        "AVFoundation; one of the two will be used\n"),
    "colab-utf8-locale": (
        "/usr/local/lib/python3.10/dist-packages/google/colab/_system_commands.py in "
        "_run_command(cmd, clear_streamed_output)\n    163     raise NotImplementedError(\n"
        "NotImplementedError: A UTF-8 locale is required. Got ANSI_X3.4-1968\n",
        "locale: LANG=en_US.UTF-8, preferred encoding UTF-8\n"),
    "signal-outside-main-thread": (
        TRACE + "  File \"/usr/lib/python3.10/signal.py\", line 56, in signal\n    handler = "
        "_signal.signal(_enum_to_int(signalnum), _enum_to_int(handler))\nValueError: signal "
        "only works in main thread of the main interpreter\n",
        "registered SIGUSR1 handler in the main thread\n"),
    "wsl-no-gpu-adapter": (
        "docker: Error response from daemon: failed to create shim task: OCI runtime create "
        "failed: runc create failed: unable to start container process: error during container "
        "init: error running hook #0: error running hook: exit status 1, stdout: , stderr: "
        "Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: WSL "
        "environment detected but no adapters were found: unknown.\n",
        "WSL environment detected: 1 GPU adapter found (/dev/dxg)\n"),
    "posix-only-module-on-windows": (
        TRACE + "  File \"D:\\proj\\common\\logger.py\", line 1, in <module>\n    import fcntl\n"
        "ModuleNotFoundError: No module named 'fcntl'\n",
        "using msvcrt file locks on Windows (no module named fcntl needed)\n"),
    "windows-posix-signal": (
        TRACE + "  File \"E:\\envs\\py39\\lib\\site-packages\\torch\\distributed\\elastic\\timer"
        "\\file_based_local_timer.py\", line 63, in FileTimerClient\n    def __init__(self, "
        "file_path: str, signal=signal.SIGKILL) -> None:\nAttributeError: module 'signal' has "
        "no attribute 'SIGKILL'\n",
        "signal handlers: SIGTERM and SIGINT installed (SIGKILL cannot be caught)\n"),
    "windows-locale-encoding": (
        TRACE + "    data = json.load(open(path))\nUnicodeDecodeError: 'gbk' codec can't decode "
        "byte 0x80 in position 68: illegal multibyte sequence\n",
        "reading data/train.json with codec 'utf-8' (gbk fallback disabled)\n"),
    "windows-relpath-other-drive": (
        "  File \"C:\\Python310\\lib\\ntpath.py\", line 744, in relpath\n    raise "
        "ValueError(\"path is on mount %r, start on mount %r\" % (\nValueError: path is on "
        "mount 'D:', start on mount 'C:'\n",
        "wandb: run files saved to D:\\runs\\wandb (on mount D:)\n"),
    "windows-path-forbidden-char": (
        TRACE + "    os.makedirs(save_path)\nOSError: [WinError 123] The filename, directory "
        "name, or volume label syntax is incorrect: 'out/total3d\\\\2023-06-13T11:09:46.665278'\n",
        "created log folder out/total3d/2023-06-13_11-09-46 at 11:09:46\n"),
    "cray-mpich-gtl-not-linked": (
        "MPICH ERROR [Rank 0] [job id 5680267.11] [Wed Feb 22 23:01:58 2023] [nid002845] - "
        "Abort(-1) (rank 0 in comm 0): MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but "
        "GTL library is not linked\n (Other MPI error)\n\naborting job:\nMPIDI_CRAY_init: "
        "GPU_SUPPORT_ENABLED is requested, but GTL library is not linked\n",
        "MPICH_GPU_SUPPORT_ENABLED=1 (GTL library linked: libmpi_gtl_cuda.so)\n"),
    "mpi-hydra-program-not-found": (
        "[proxy:0:0@brown-a017.rcac.purdue.edu] HYDU_create_process "
        "(../../../../src/pm/hydra/utils/launch/launch.c:74): execvp error on file ./spk_mpi "
        "(No such file or directory)\n",
        "[proxy:0:0@node01] HYDU_create_process: launched ./spk_mpi (pid 4242)\n"),
    "miopen-user-db-unwritable": (
        "MIOpen Error: /long_pathname_so_that_rpms_can_package_the_debug_info/src/extlibs/"
        "MLOpen/src/sqlite_db.cpp:229: Internal error while accessing SQLite database: unable "
        "to open database file\n" + TRACE + "    out = model(x)\nRuntimeError: "
        "miopenStatusInternalError\n",
        "MIOpen(HIP): Info [SQLiteBase] opened sqlite_db /tmp/miopen/gfx90a68.ukdb\n"),
    "lightning-lsf-hosts-missing": (
        TRACE + "  File \"/ccs/home/u/.conda/envs/pl/lib/python3.8/site-packages/pytorch_lightning/"
        "plugins/environments/lsf_environment.py\", line 126, in _read_hosts\n    raise "
        "ValueError(\"Could not find hosts in environment variable LSB_HOSTS\")\nValueError: "
        "Could not find hosts in environment variable LSB_HOSTS\n",
        "LSFEnvironment: hosts read from LSB_DJOB_RANKFILE (LSB_HOSTS unset)\n"),
    "openmpi-ranks-unreachable": (
        "At least one pair of MPI processes are unable to reach each other for\nMPI "
        "communications.  This means that no Open MPI device has indicated\nthat it can be "
        "used to communicate between these processes.\n\n  Process 1 ([[15333,1],1]) is on "
        "host: cauchy01\n  Process 2 ([[15333,1],0]) is on host: cauchy01\n  BTLs attempted: "
        "self\n\nYour MPI job is now going to abort; sorry.\n",
        "btl: all MPI processes are able to reach each other (self,vader,tcp)\n"),
    "mpi-ofi-init-failed": (
        "Abort(1091215) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI "
        "error, error stack:\nMPIR_Init_thread(136)........:\nMPID_Init(1138)..............:"
        "\nMPIDI_OFI_mpi_init_hook(1061): OFI addrinfo() failed (ofi_init.c:1061:"
        "MPIDI_OFI_mpi_init_hook:No data available)\n",
        "[0] MPI startup(): libfabric provider: tcp;ofi_rxm (MPIDI_OFI_mpi_init_hook done)\n"),
    "openmpi-pmix-not-initialized": (
        "[server13:13286] OPAL ERROR: Not initialized in file pmix3x_client.c at line 113\n*** "
        "An error occurred in MPI_Init_thread\n*** on a NULL communicator\n*** "
        "MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n***    and "
        "potentially your MPI job)\n",
        "[server13:13286] pmix3x_client.c: PMIx client initialized (server 13279)\n"),
    "windows-path-too-long": (
        TRACE + "    os.makedirs(self.PATH)\nFileNotFoundError: [WinError 206] The filename or "
        "extension is too long: 'D:\\\\DQN-Trading\\\\Results\\\\AAPL\\\\DQN; BATCH_SIZE10; "
        "GAMMA0.7'\n",
        "LongPathsEnabled=1: paths over 260 characters allowed\n"),
    "windows-file-in-use": (
        TRACE + "    os.rename(tmp_path, ckpt_path)\nPermissionError: [WinError 32] The process "
        "cannot access the file because it is being used by another process: "
        "'logs\\\\ckpt.tmp' -> 'logs\\\\ckpt.pth'\n",
        "checkpoint logs\\ckpt.pth written and closed (in use by another process: none)\n"),
    "windows-torch-dll-procedure": (
        TRACE + "    import torch\nOSError: [WinError 127] The specified procedure could not "
        "be found. Error loading \"C:\\venv\\lib\\site-packages\\torch\\lib\\c10_cuda.dll\" or "
        "one of its dependencies.\n",
        "Loaded \"C:\\venv\\lib\\site-packages\\torch\\lib\\c10_cuda.dll\" (all procedures "
        "found)\n"),
    "windows-tcpstore-hidden-error": (
        "Traceback (most recent call last):\n  File \"C:\\envs\\t20\\lib\\site-packages\\torch"
        "\\distributed\\rendezvous.py\", line 189, in _create_c10d_store\n    return TCPStore(\n"
        "RuntimeError: unmatched '}' in format string\n",
        "TCPStore(host_name='127.0.0.1', port=29500) started; format string '{rank}' ok\n"),
    "nvml-blocked-by-os": (
        "$ nvidia-smi\nFailed to initialize NVML: GPU access blocked by the operating system\n",
        "nvidia-smi: NVML initialised, GPU access granted\n"),
    "gpu-driver-init-failed": (
        "[  12.441923] NVRM: GPU 0000:98:00.0: RmInitAdapter failed! (0x62:0x65:1792)\n"
        "[  12.442011] NVRM: GPU 0000:98:00.0: rm_init_adapter failed, device minor number 0\n",
        "[  12.441923] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15\n"),
    "torch-cuda-arch-unknown": (
        TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/torch/utils/cpp_extension.py\", "
        "line 1606, in _get_cuda_arch_flags\n    raise ValueError(f\"Unknown CUDA arch ({arch}) "
        "or GPU not supported\")\nValueError: Unknown CUDA arch (8.9) or GPU not supported\n",
        "TORCH_CUDA_ARCH_LIST=8.0;8.6;8.9 (all supported by this torch)\n"),
    "extension-build-sees-no-gpu": (
        "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n" + TRACE
        + "  File \"/usr/local/lib/python3.7/dist-packages/torch/utils/cpp_extension.py\", line "
        "1606, in _get_cuda_arch_flags\n    arch_list[-1] += '+PTX'\n"
        "IndexError: list index out of range\n",
        "arch_list: ['8.0', '8.6+PTX'] (from TORCH_CUDA_ARCH_LIST)\n"),
    "flash-attn-backward-head-dim": (
        TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/flash_attn/flash_attn_interface"
        ".py\", line 96, in _flash_attn_backward\n    dq, dk, dv, softmax_d, = flash_attn_cuda.bwd("
        "\nRuntimeError: FlashAttention backward for head dim > 192 requires A100/A800 or "
        "H100/H800\n",
        "flash-attn backward: head dim 128 on A100-SXM4-80GB\n"),
    "bitsandbytes-old-on-windows": (
        TRACE + "  File \"C:\\Users\\u\\miniconda3\\envs\\lora\\lib\\site-packages\\bitsandbytes\\"
        "cuda_setup\\main.py\", line 162, in get_cuda_lib_handle\n    if not os.path.exists("
        "dir_path):\nTypeError: argument of type 'WindowsPath' is not iterable\n",
        "bitsandbytes 0.43.1 loaded from C:\\Users\\u\\site-packages\\bitsandbytes (WindowsPath ok)\n"),
    "pyg-extension-cuda-mismatch": (
        TRACE + "  File \"/usr/local/lib/python3.8/site-packages/torch_sparse/__init__.py\", line "
        "40, in <module>\n    raise RuntimeError(\nRuntimeError: Detected that PyTorch and "
        "torch_sparse were compiled with different CUDA versions. PyTorch has CUDA version 11.3 "
        "and torch_sparse has CUDA version 10.2. Please reinstall the torch_sparse that matches "
        "your PyTorch install.\n",
        "torch_sparse 0.6.18 (CUDA 12.1) matches PyTorch 2.1.0+cu121\n"),
    "deepspeed-op-prebuild-incompatible": (
        " [WARNING]  async_io requires the dev libaio .so object and headers but these were not "
        "found.\n" + TRACE.replace("train.py", "setup.py") + "    assert op_builder.is_compatible(), "
        "f\"Unable to pre-compile {op_name}\"\nAssertionError: Unable to pre-compile async_io\n",
        "Install Ops={'async_io': 1, 'fused_adam': 1, 'cpu_adam': 1} (all pre-compiled)\n"),
    "wheel-platform-mismatch": (
        "$ pip install flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl\n"
        "ERROR: flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl is not a "
        "supported wheel on this platform.\n",
        "Processing ./flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl\n"),
    "nvcc-gcc11-parameter-packs": (
        "/usr/include/c++/11/bits/std_function.h:435:145: error: parameter packs not expanded "
        "with '...':\n  435 |         function(_Functor&& __f)\n"
        "/usr/include/c++/11/bits/std_function.h:435:145: note:         '_ArgTypes'\n"
        "ninja: build stopped: subcommand failed.\n",
        "/usr/include/c++/11/bits/std_function.h included (gcc 11.4, CUDA 12.1)\n"),
    "extension-build-out-of-memory": (
        "FAILED: /tmp/pip-install-abc/flash-attn_1/build/temp.linux-x86_64-cpython-310/csrc/"
        "flash_attn/src/flash_bwd_hdim128_fp16_sm80.o\nc++: fatal error: Killed signal "
        "terminated program cc1plus\ncompilation terminated.\n"
        "ninja: build stopped: subcommand failed.\n",
        "[12/49] c++ -c flash_api.cpp -o flash_api.o (cc1plus peak 3.1 GB)\n"),
    "extension-uses-removed-torch-api": (
        "building 'DCNv2._ext' extension\n/workspace/DCNv2/src/cuda/dcn_v2_cuda.cu:6:10: fatal "
        "error: THC/THC.h: No such file or directory\n    6 | #include <THC/THC.h>\n"
        "compilation terminated.\nerror: command '/usr/local/cuda/bin/nvcc' failed with exit "
        "status 1\n",
        "replaced THC/THC.h with ATen/cuda/CUDAContext.h; AT_CHECK with TORCH_CHECK\n"),
    "extension-needs-cxx17": (
        "[ 50%] Building CXX object CMakeFiles/libsegmentator.dir/segmentator.cpp.o\n"
        "/opt/conda/lib/python3.8/site-packages/torch/include/torch/csrc/api/include/torch/all.h"
        ":4:2: error: #error C++17 or later compatible compiler is required to use PyTorch.\n"
        " #error C++17 or later compatible compiler is required to use PyTorch.\n",
        "-- CMAKE_CXX_STANDARD 17: a C++17 compiler is used for PyTorch\n"),
    "mmcv-ops-missing": (
        TRACE + "  File \"/opt/conda/lib/python3.8/site-packages/mmcv/utils/ext_loader.py\", line "
        "13, in load_ext\n    ext = importlib.import_module('mmcv.' + name)\n"
        "ModuleNotFoundError: No module named 'mmcv._ext'\n",
        "MMCV CUDA Compiler: 12.1; mmcv._ext loaded\n"),
    "mamba-kernels-missing": (
        TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/mamba_ssm/ops/selective_scan_"
        "interface.py\", line 10, in <module>\n    import selective_scan_cuda\n"
        "ModuleNotFoundError: No module named 'selective_scan_cuda'\n",
        "selective_scan_cuda loaded from site-packages\n"),
    "causal-conv1d-version-mismatch": (
        TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/mamba_ssm/ops/triton/ssd_combined"
        ".py\", line 850, in forward\n    causal_conv1d_cuda.causal_conv1d_fwd(rearrange(xBC, "
        "\"b s d -> b d s\"),\nTypeError: causal_conv1d_fwd(): incompatible function arguments. "
        "The following argument types are supported:\n    1. (arg0: torch.Tensor, arg1: "
        "torch.Tensor, arg2: Optional[torch.Tensor], arg3: Optional[torch.Tensor], arg4: bool) "
        "-> torch.Tensor\n",
        "causal_conv1d 1.4.0 and mamba_ssm 2.2.2: causal_conv1d_fwd signature ok\n"),
    "setup-py-import-hidden-by-build-isolation": (
        "Collecting flash-attn\n  Preparing metadata (setup.py) ... error\n  error: "
        "subprocess-exited-with-error\n  × python setup.py egg_info did not run successfully.\n"
        "  │ exit code: 1\n  ╰─> [6 lines of output]\n      Traceback (most recent call last):\n"
        "        File \"/tmp/pip-install-ab12/flash-attn_4a/setup.py\", line 9, in <module>\n"
        "          from packaging.version import parse, Version\n"
        "      ModuleNotFoundError: No module named 'packaging'\n      [end of output]\n",
        "Collecting flash-attn\n  Preparing metadata (setup.py) ... done\n"),
    "detectron2-c-missing": (
        TRACE + "  File \"/home/user/detectron2/detectron2/layers/deform_conv.py\", line 11, in "
        "<module>\n    from detectron2 import _C\nImportError: cannot import name '_C' from "
        "'detectron2' (/home/user/detectron2/detectron2/__init__.py)\n",
        "detectron2._C loaded from /venv/lib/python3.10/site-packages/detectron2\n"),
    "flash-attn-cuda-module-missing": (
        TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/flash_attn/flash_attn_interface"
        ".py\", line 10, in <module>\n    import flash_attn_2_cuda as flash_attn_cuda\n"
        "ModuleNotFoundError: No module named 'flash_attn_2_cuda'\n",
        "flash_attn_2_cuda imported from /venv/lib/python3.10/site-packages\n"),
    "zero3-param-not-gathered": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/"
        "partitioned_param_coordinator.py\", line 385, in fetch_sub_module\n    assert "
        "param.ds_status == ZeroParamStatus.AVAILABLE, param.ds_summary()\nAssertionError: "
        "{'id': 292, 'status': 'NOT_AVAILABLE', 'numel': 0, 'ds_numel': 0, 'shape': (0,), "
        "'ds_shape': (0, 4096), 'requires_grad': True, 'grad_shape': None, 'persist': True}\n",
        "{'id': 292, 'status': 'AVAILABLE', 'numel': 4096, 'ds_numel': 4096}\n"),
    "zero3-param-not-partitioned": (
        TRACE + "  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py\", "
        "line 1020, in _create_fp16_partitions_with_defragmentation\nAttributeError: "
        "'Parameter' object has no attribute 'ds_numel'\n",
        "ZeRO-3 partitioned 291 parameters: ds_numel total 6738415616\n"),
    "fsdp-inner-unit-as-root": (
        TRACE + "  File \"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/"
        "_runtime_utils.py\", line 142, in _lazy_init\nAssertionError: Non-root FSDP "
        "instance's `_is_root` should not have been set yet or should have been set to "
        "`False`\n",
        "FSDP root module initialised; 32 non-root units\n"),
    "fsdp-param-shape-changed": (
        TRACE + "  File \"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/"
        "_flat_param.py\", line 1998, in _writeback_tensor\nRuntimeError: Cannot writeback "
        "when the parameter shape changes\nExpects torch.Size([525336576]) but got "
        "torch.Size([128256, 4096])\n",
        "FSDP: writeback of 32 flat parameters after the optimizer step\n"),
    "fsdp-backward-state": (
        TRACE + "  File \"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/"
        "_runtime_utils.py\", line 715, in _post_backward_hook\nValueError: expected to be in "
        "states [<TrainingState.FORWARD_BACKWARD: 2>] but current state is "
        "TrainingState.IDLE\n",
        "FSDP training state: FORWARD_BACKWARD -> IDLE after step 12\n"),
}

PATTERN_RULES = [r.id for r in load_rules() if r.every_pattern and not r.consequence]


def test_every_pattern_rule_has_a_case():
    assert sorted(set(PATTERN_RULES) - set(CASES)) == []


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_triggers(rule_id):
    text, _ = CASES[rule_id]
    result = diagnose(from_text(text, "case.log"))
    assert result.status == "diagnosed", (rule_id, result)
    assert result.findings[0].id == rule_id
    assert result.findings[0].evidence and result.findings[0].fixes


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_near_miss_does_not_trigger(rule_id):
    _, near_miss = CASES[rule_id]
    result = diagnose(from_text(near_miss, "near.log"))
    assert result.status == "no_failure", (rule_id, result.findings)


HEALTHY = "".join(
    f"[rank{r}]: epoch {s // 100} step {s} loss {2.5 / (s + 1):.4f} lr 3e-4 grad_norm 0.81\n"
    for s in range(5000) for r in (0, 1)) + (
    "NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\nNCCL INFO comm 0x5 rank 0 nranks 2 - Init "
    "COMPLETE\nSaving checkpoint to checkpoints/last.pt\nTraining pipeline completed\n")


def test_healthy_long_run_gets_nothing():
    result = diagnose(from_text(HEALTHY, "healthy.log"))
    assert result.status == "no_failure" and not result.findings and not result.consequences


TORCHRUN_FAILURE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "train.py", line 40, in <module>
[rank0]:     dist.all_reduce(t)
[rank0]: torch.distributed.DistBackendError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [127.0.0.1]:41234
[rank0]: RuntimeError: Connection closed by peer
[rank0]: Connection reset by peer
W1122 10:00:05 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4201 closing signal SIGTERM
E1122 10:00:05 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 1 (pid: 4202) of binary: /usr/bin/python3
Traceback (most recent call last):
  File "/usr/bin/torchrun", line 8, in <module>
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-22_10:00:05
  host      : gpu-box
  rank      : 1 (local_rank: 1)
  exitcode  : -9 (pid: 4202)
  error_file: <N/A>
  traceback : Signal 9 (SIGKILL) received by PID 4202
============================================================
"""


def test_cause_is_not_the_loudest_rank():
    result = diagnose(from_text(TORCHRUN_FAILURE, "torchrun.log"))
    assert result.root_cause_rank == 1 and result.root_exit == "SIGKILL"
    assert result.findings[0].id == "oom-killer"
    assert result.consequences and result.consequences[0].rank == 0
    assert all(f.id != "peer-connection-closed" for f in result.findings)


def test_a_lost_peer_alone_is_what_the_log_shows():
    # a rank's own log where it raised only because its peer (or the store's host) went away:
    # no "no known failure", and no cause it does not show either
    for text in ("[rank0]: RuntimeError: Connection closed by peer\n",
                 "torch.distributed.DistStoreError: Failed to recv, got 0 bytes. Connection was "
                 "likely closed. Did the remote server shutdown or crash?\n"):
        result = diagnose(from_text(text, "x.log"))
        assert result.status == "diagnosed", text
        assert [f.id for f in result.findings] == ["peer-died-silently"], text
    # the same words in a line that is no failure
    for text in ("2024-01-01 12:00:00 INFO client: Connection reset by peer, reconnecting\n",
                 "ssh: Broken pipe\n"):
        assert diagnose(from_text(text, "x.log")).status == "no_failure", text


def test_the_node_that_survived_a_killed_peer_is_a_witness():
    # torch 2.13's own output (recorded: two torchrun nodes, node 0's rank SIGKILLed): the
    # surviving node's rank raised gloo's "Connection closed by peer" and its launcher reports
    # exit code 1; the cause is on the other node, not an exit without a message
    path = Path(__file__).resolve().parents[1] / "fixtures" / "recorded"
    text = (path / "torchrun-survivor-node.log").read_text("utf-8")
    result = diagnose(from_text(text, "node1.log"))
    assert [f.id for f in result.findings][:1] == ["peer-died-silently"], result.findings
    assert result.root_cause_rank == 1


def test_a_node_stalled_at_the_stores_retries_has_a_failed_rendezvous():
    # torch 2.13's own output (recorded: a node whose MASTER_ADDR:PORT answered with something
    # other than a store, stopped after 40 s): TCPStore's retry warnings, each under its C++
    # backtrace, until the log ends; retries that reach the store and go on stay quiet.  Its
    # ping read "HTTP" back (1347703880): something else answers there, then the rendezvous
    path = Path(__file__).resolve().parents[1] / "fixtures" / "recorded"
    text = (path / "torchrun-store-unreachable.log").read_text("utf-8")
    result = diagnose(from_text(text, "node1.log"))
    assert [f.id for f in result.findings][:2] == [
        "store-address-other-service", "rendezvous-failed"], result.findings
    retry = text[:text.index("\n\n") + 2]  # the first warning and its backtrace
    assert diagnose(from_text(retry * 2 + "step 1 loss 2.30\n", "ok.log")).status == "no_failure"


def test_a_native_backtrace_at_a_logs_end_is_read_past_to_the_line_it_came_under():
    waiting = ("Waiting in store based barrier to initialize process group for rank: 0, key: "
               "store_based_barrier_key:1 (world_size=4, worker_count=8, timeout=0:01:00)\n")
    trace = ("Exception raised from wait at /pytorch/torch/csrc/distributed/c10d/Store.cpp:12 "
             "(most recent call first):\n<omitting python frames>\n"
             + "".join(f"frame #{n}: <unknown function> + 0x{n}f (0x7f in /opt/venv/lib/"
                       f"libtorch_cpu.so)\n" for n in range(40)) + "\n")
    assert diagnose(from_text(waiting * 3 + trace, "x.log")).findings[0].id == (
        "process-group-timeout-too-short")
    assert diagnose(from_text(waiting * 3 + "Rank 0: Completed store-based barrier\n" + trace,
                              "ok.log")).status == "no_failure"


def test_bare_exit_code_shows_the_ranks_last_lines():
    text = TORCHRUN_FAILURE.replace("exitcode  : -9", "exitcode  : 3").replace(
        "[rank0]: torch.distributed.DistBackendError", "[rank1]: weird thing happened\n[rank0]: x")
    text = text.replace("Signal 9 (SIGKILL) received by PID 4202", "<N/A>")
    text = "\n".join(line for line in text.splitlines() if "Connection" not in line) + "\n"
    result = diagnose(from_text(text, "x.log"))
    assert result.status == "diagnosed" and result.root_cause_rank == 1
    assert [f.id for f in result.findings] == ["nonzero-exit"]
    assert result.root_exit == "exit code 3"
    assert any("weird thing happened" in line for line in result.last_lines)


# torch 2.15's ProcessGroupNCCL2 words its timeouts and async errors in its own way: the
# messages below are its format strings (libtorch_cuda of torch 2.15.0, the nccl2 sources),
# filled in as its watchdog fills them; no GPU here produced them.
@pytest.mark.parametrize(("text", "rule_id"), [
    ("[rank1]:[E1124 10:00:01.000000000 ProcessGroupNCCL.cpp:812] Watchdog caught collective "
     "operation timeout: NCCL operation timed out\n", "collective-timeout"),
    ("[rank1]:[E1124 10:00:01.000000000 ProcessGroupNCCL.cpp:901] [PG ID 0 PG GUID 0 Rank 1] "
     "timeout - timeout watchdog detected operation timeout\n", "collective-timeout"),
    ("[rank0]:[E1124 10:00:01.000000000 ProcessGroupNCCL.cpp:640] nccl hit async error on "
     "rank 0: unhandled system error\n", "nccl-error"),
])
def test_nccl2_wording(text, rule_id):
    result = diagnose(from_text(text, "case.log"))
    assert result.findings and result.findings[0].id == rule_id, result


# One CUDA error in the words of each program that reports it; each form is the one that
# program's source prints (torch's C10_CUDA_CHECK and THCudaCheck, NCCL's CUDACHECK, CuPy,
# Triton's driver, torch's driver API calls, JAX, Numba, PyCUDA, TensorRT-LLM, LMDeploy,
# ROCm's torch).
CUDA_FORMS = {
    "torch": "RuntimeError: CUDA error: {message}\nCUDA kernel errors might be asynchronously "
             "reported at some other API call, so the stacktrace below might be incorrect.",
    "torch-1.x": "RuntimeError: cuda runtime error (9) : {message} at "
                 "/pytorch/aten/src/THC/THCGeneral.cpp:50",
    "nccl": "host:123:456 [0] NCCL WARN Cuda failure '{message}'\nRuntimeError: NCCL error in: "
            "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled cuda error, "
            "NCCL version 2.18.1",
    "nccl-2.19": "host:123:456 [0] NCCL WARN Cuda failure 9 '{message}'\nRuntimeError: NCCL "
                 "error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error",
    "cupy": "cupy_backends.cuda.api.runtime.CUDARuntimeError: {runtime}: {message}",
    "triton": "RuntimeError: Triton Error [CUDA]: {message}",
    "driver": "RuntimeError: CUDA driver error: {message}",
    "jax": "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to allocate: {driver}: "
           "{message}",
    "numba": "numba.cuda.cudadrv.driver.CudaAPIError: [9] Call to cuCtxCreate results in "
             "{driver}",
    "pycuda": "pycuda._driver.LogicError: cuCtxCreate failed: {message}",
    "tensorrt-llm": "[TensorRT-LLM][ERROR] CUDA runtime error in cudaMalloc(&ptr, size): "
                    "{message} (/src/cpp/tensorrt_llm/common/cudaAllocator.cpp:38)",
    "lmdeploy": "RuntimeError: [TM][ERROR] CUDA runtime error: {message} "
                "/lmdeploy/src/turbomind/utils/memory_utils.cu:32",
}


def _cuda_error_cases() -> list[tuple[str, str, str]]:
    import yaml

    from safelaunch.diagnose import cuda_errors

    raw = yaml.safe_load((Path(__file__).resolve().parents[2] / "safelaunch" / "diagnose"
                          / "rules.yaml").read_text("utf-8"))
    cases = []
    for rule in raw:
        for name in rule.get("cuda_errors") or ():
            error = cuda_errors.CUDA_ERRORS[name]
            for form, text in CUDA_FORMS.items():
                if "{driver}" in text and not error.driver:
                    continue
                cases.append((text.format(message=error.message, runtime=error.runtime,
                                          driver=error.driver), rule["id"], f"{name}-{form}"))
    return cases


CUDA_CASES = _cuda_error_cases()


def test_every_cuda_error_is_some_rules():
    from safelaunch.diagnose import cuda_errors

    named = {case_id.split("-")[0] for _, _, case_id in CUDA_CASES}
    assert named == set(cuda_errors.CUDA_ERRORS)


@pytest.mark.parametrize(("text", "rule_id"), [(t, r) for t, r, _ in CUDA_CASES],
                         ids=[i for _, _, i in CUDA_CASES])
def test_a_cuda_error_is_known_in_every_programs_words(text, rule_id):
    result = diagnose(from_text("step 10 loss 0.31\n" + text + "\n", "case.log"))
    assert result.findings and result.findings[0].id == rule_id, (
        [f.id for f in result.findings], result.status)


def test_a_short_cuda_message_alone_is_no_cuda_error():
    """"out of memory" and "misaligned address" name a CUDA error only in its own words."""
    for line in ("malloc: out of memory, retrying with a smaller pool",
                 "warning: misaligned address in the widget table, realigned"):
        result = diagnose(from_text("step 10 loss 0.31\n" + line + "\nstep 11 loss 0.30\n",
                                    "case.log"))
        assert not any(f.id in ("cuda-oom", "cuda-illegal-access") for f in result.findings)


GLOG_TRACEBACK = """\
E0227 12:00:00.123000 1234 torch/distributed/elastic/multiprocessing/api.py:732] failed \
(exitcode: 1) local_rank: 1 (pid: 4202) of binary: /usr/bin/python3
E0227 12:00:00.124000 1234 torch/distributed/elastic/agent/server/api.py:732] Traceback (most recent call last):
E0227 12:00:00.124000 1234 torch/distributed/elastic/agent/server/api.py:732]   File "train.py", line 12, in main
E0227 12:00:00.124000 1234 torch/distributed/elastic/agent/server/api.py:732]     w = model.weight
E0227 12:00:00.124000 1234 torch/distributed/elastic/agent/server/api.py:732] AttributeError: 'DistributedDataParallel' object has no attribute 'weight'
"""


def test_glog_prefixed_traceback_is_read():
    result = diagnose(from_text(GLOG_TRACEBACK, "torchrun.log"))
    assert result.findings[0].id == "ddp-module-attribute"


@pytest.mark.parametrize("text", [
    "the traceback ends with\n    raise WidgetError('widget 7 is frobnicated')\n",
    "my run fails with \u201c[WidgetError : widget 7 is frobnicated]\u201d every time\n",
    "WidgetError : widget 7 is frobnicated\n",
    "[2/3] c++ -c widget.cpp -o widget.o\nFAILED: widget.o\nninja: build stopped.\n",
    "loading shards: 3/3\nError: widget service refused the frobnicator\n",
    "FATAL: widget 7 could not be frobnicated\n",
    "python: widget.c:42: frob: Assertion `w->ok' failed.\n",
    "step 40\nFloating point exception\n",
    "*** Aborted at 1700000000 (unix time) try \"date -d @1700000000\" if you are using GNU "
    "date ***\n",
    "worker 3 exited with status 2\n",
    # a module's class without Error in its name, a socket's lowercase ones, Ray's wrapper
    "pyarrow.lib.ArrowTypeError: Expected bytes, got a 'int' object\n",
    "torch._dynamo.exc.Unsupported: call_function UserDefinedObjectVariable(widget)\n",
    "socket.timeout: timed out\n",
    "ray.exceptions.RayTaskError(WidgetError): ray::Widget.frob() (pid=81, ip=10.0.0.3)\n",
    "(Widget pid=81) Exception raised in creation task: The actor died because of an error "
    "raised in its creation task, ray::Widget.__init__() (pid=81, ip=10.0.0.3)\n",
    # a compiler's error, torch's store sockets, nccl-tests' wrong results, nvidia-smi's ERR!
    "widget/frob.cu:12:10: fatal error: widget.h: No such file or directory\n",
    "[E1127 04:00:00 socket.cpp:1011] The server socket has failed to listen on any local "
    "network address.\n",
    " Out of bounds values : 8 FAILED\n",
    "|   0  NVIDIA A100-SXM4-80GB  On  | 00000000:07:00.0 Off |                  ERR! |\n",
    # Open MPI's mpirun: a rank's exit, and a rank killed by a signal
    "mpirun detected that one or more processes exited with non-zero status, thus causing\n",
    "Primary job  terminated normally, but 1 process returned\na non-zero exit code. Per "
    "user-direction, the job has been aborted.\n",
    "mpirun noticed that process rank 1 with PID 0 on node gpu01 exited on signal 6 (Aborted).\n",
    # a logger's uncaught exception, a library ending the process, bash's own errors
    "2024-07-16 21:30:52.219\tnode:5\twidget.util:163\tCRITICAL\tUncaught WidgetError: widget 7"
    " is frobnicated\n",
    "Widget provider has encountered an internal error:\n\nYour application will now abort().\n",
    # a logger's error level after its time stamp (logging, DeepSpeed's, loguru's), Hydra's
    "2024-03-07 11:04:36,333 - __main__ - ERROR - widget 7 is frobnicated\n",
    "[2024-03-07 11:04:36,333] [ERROR] [widget.py:12:frob] widget 7 is frobnicated\n",
    "2024-03-07 11:04:36.123 | ERROR    | widget:frob:12 - widget 7 is frobnicated\n",
    # Ray's own format (a tab after the time stamp)
    "2024-03-07 11:04:36,333\tERROR widget.py:12 -- widget 7 is frobnicated\n",
    "CRITICAL:root:widget 7 is frobnicated\n",
    "Error executing job with overrides: ['trainer.devices=2']\n",
    # bash's report of a child a signal killed, where the log ends
    "./run.sh: line 5: 12345 Killed                  widgetd --frob\n",
    # the dynamic loader's refusals, pasted without their ImportError (ld.so, dyld)
    "/venv/lib/python3.10/site-packages/widget/_C.so: undefined symbol: frob_widget\n",
    "Symbol not found: _frob_widget\n",
    "  Library not loaded: @rpath/libwidget.dylib\n",
    # glog's fatal level and its CHECK (Ray's C++ workers), Go's panic
    "F1127 12:00:00.000000 1234 widget.cc:12] Check failed: widget_ != nullptr\n",
    "[2025-04-02 15:02:00,117 F 1357 1357] core_worker.cc:254: Check failed: _s.ok() Bad\n",
    "panic: runtime error: invalid memory address or nil pointer dereference\n",
    # where the log ends: an exception after a logger's or a tool's own prefix, a tool's end
    "[12:00:00] widget: RuntimeError: the frobnicator refused widget 7\n",
    "2024-01-01 12:00:00 | widget | ValueError: widget 7 is frobnicated\n",
    "Training failed: the frobnicator refused widget 7\n",
    # Monarch's count of processes before a shared line; MPICH's abort; oneCCL's error level
    "[8 similar log lines] ValueError: widget 7 is frobnicated\n",
    "Abort(1090447) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Unknown "
    "error class, error stack:\nMPIR_Init_thread(192)........:\n",
    "2025:06:02-10:11:12:(4242) |CCL_ERROR| widget.cpp:12 frob: widget 7 is frobnicated\n",
    # an error level in brackets after a tool's own tags (TensorRT-LLM, TensorRT)
    "[TensorRT-LLM][ERROR] Assertion failed: widget 7 is frobnicated (/src/widget.cpp:12)\n",
    "[TRT] [E] 3: [widget.cpp::frob::12] Parameter check failed at: widget 7\n",
    # TensorRT's Python logger after its time stamp, where the log ends
    "[09/25/2023-10:15:20] [TRT] [E] 3: [widget.cpp::frob::12] Error Code 3: widget 7\n",
    # a binding's class in lower camel case, qualified by its module (NIXL's)
    "widget._bindings.widgetBackendError: WIDGET_ERR_BACKEND\n",
    # Open MPI's banner when a rank called MPI_Abort
    "MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD\nwith errorcode 1.\n",
    # HPE Cray MPICH's error line before its abort; Open MPI's end of a job it cannot run
    "MPICH ERROR [Rank 0] [job id 5680267.11] [Wed Feb 22 23:01:58 2023] [nid002845] - "
    "Abort(-1) (rank 0 in comm 0): widget 7 is frobnicated\n (Other MPI error)\n",
    "Your MPI job is now going to abort; sorry.\n",
])
def test_a_failure_is_known_by_its_shape(text):
    """An exception typed with a space before its colon, quoted in brackets, or shown only by
    the ``raise`` line of its frame, and a failed build step: a failure, though no rule
    knows it."""
    result = diagnose(from_text(text, "shape.log"))
    assert result.status == "diagnosed" and result.findings[0].id in (
        "failure-shown", "extension-build-failed"), result


HYDRA_BANNER = (
    "=" * 83 + "\n=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 9665 RUNNING AT "
    "node7\n=   EXIT CODE: 9\n=   CLEANING UP REMAINING PROCESSES\n=   YOU CAN IGNORE THE BELOW "
    "CLEANUP MESSAGES\n" + "=" * 83 + "\n")


def test_the_mpi_launchers_reports_name_how_a_rank_ended():
    # HPE PALS (Polaris, Aurora): the first rank to end, and its signal or exit code
    pals = ("x3006c0s19b1n0.hsn.cm.polaris.alcf.anl.gov: rank 3 died from signal 9\n"
            "x3006c0s19b1n0.hsn.cm.polaris.alcf.anl.gov: rank 2 died from signal 15\n")
    result = diagnose(from_text(pals, "job.out"))
    assert (result.root_cause_rank, result.root_exit) == (3, "SIGKILL")
    exited = pals.replace("died from signal 9", "exited with code 2")
    result = diagnose(from_text(exited, "job.out"))
    assert (result.root_cause_rank, result.root_exit) == (3, "exit code 2")
    assert result.findings[0].id == "nonzero-exit"
    # MPICH's Hydra: its banner's exit code, the signal where its exit string names one
    killed = HYDRA_BANNER + ("YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal "
                             "9)\nThis typically refers to a problem with your application.\n")
    assert diagnose(from_text(killed, "mpi.log")).root_exit == "SIGKILL"
    result = diagnose(from_text(HYDRA_BANNER.replace("CODE: 9", "CODE: 3"), "mpi.log"))
    assert result.root_exit == "exit code 3" and result.findings[0].id == "nonzero-exit"
    # a healthy PALS run's lines
    assert diagnose(from_text("node1: rank 0 exited with code 0\n", "job.out")).status == (
        "no_failure")


def test_words_near_a_failure_shape_are_no_failure():
    text = ("raise_on_error: false\nall 12 tests passed, 0 FAILED\nfatality rate 0.1\n"
            "[ValueError handling] enabled\nError: 0.0213\nerror: 1.5e-3 (rel)\n"
            "worker 3 exited with status 0\nAssertion checks: on\n"
            "lightning.pytorch.utilities.rank_zero: GPU available: True\n"
            "Trainer.fit: stopped after 3 epochs\nsocket.timeout: 30 s (default)\n"
            "model.Widget:widget 7 loaded\n"
            "widget.config.lastError: none\nwidget.onError: retry\n"
            "MPI_ABORT handler installed\n"
            " Out of bounds values : 0 OK\n"
            "[W1127 socket.cpp:464] [c10d] The client socket has failed to connect to "
            "[node-0]:29500 (errno: 111 - Connection refused).\nstep 1 loss 2.3\n"
            "| N/A   34C    P0    61W / 400W |      4MiB / 81920MiB |      0%      Default |\n"
            "uncaught exceptions are logged to errors.log\nabort_on_nan: true (the run will "
            "abort)\nrun.sh: line 3: starting widgetctl\n"
            "2024-03-07 11:04:36,333 - INFO - ERROR rate 0.1\n"
            "[2024-03-07 11:04:36,333] [INFO] ERROR: none\n      Exit Code:    0\n"
            "2022-08-13 16:11:45.355984: W tensorflow/stream_executor/platform/default/dso_"
            "loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
            "libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
            "UserWarning: Failed to load image Python extension: '/venv/torchvision/image.so: "
            "undefined symbol: _ZN3c1017RegisterOperatorsD1Ev'\n"
            "checked: no undefined symbol in libwidget.so\n"
            # bitsandbytes 0.41's CUDA setup probing, and a logger's warning of a probe
            "libcusparse.so.11: cannot open shared object file: No such file or directory\n"
            "WARNING:root:libwidget.so: undefined symbol: frob (widget acceleration off)\n"
            "widget-0   1/1     Running   0          3m\n"
            "Check failed: 0 of 8 widgets (all passed)\n".replace("Check failed", "checks")
            + "2024-01-01 12:00:00 | INFO | retrying after ConnectionError: reset by peer\n"
            "[12:00:01] WARNING widget: retrying after TimeoutError: 10 s\n"
            "./setup.sh: line 4: nvidia-smi: command not found\n"
            "[3 similar log lines] widget 7 loaded\n"
            "step 12 loss 2.1\n")
    assert diagnose(from_text(text, "quiet.log")).status == "no_failure"


def test_errors_a_run_went_on_after_are_no_failure():
    """An exception a tool logged after its own prefix, or a step that "failed:", shows a
    failure only where the log ends at it: before the last lines, the run went on."""
    went_on = ("[12:00:00] hub: ConnectionError: reset by peer (retrying)\n"
               "Download failed: checksum mismatch, retrying\n"
               # a logger's error level after its time stamp (DeepSpeed's, TensorRT's)
               "[2024-05-01 10:00:02] [ERROR] Failed to upload checkpoint to s3://bucket/ckpt-10,"
               " will retry in 5s\n"
               "[09/25/2023-10:15:20] [TRT] [E] 3: [widget.cpp::frob::12] Error Code 3: widget 7\n"
               # Python logging's default format quoting an exception it recovered from
               "WARNING:__main__:ConnectionError: could not reach wandb.ai, will retry in 10s\n"
               # TensorFlow's and XLA's allocators retrying a smaller chunk
               "2024-01-01 12:00:00.000000: I tensorflow/compiler/xla/stream_executor/cuda/"
               "cuda_driver.cc:831] failed to allocate 2.20G (2363138048 bytes) from device: "
               "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
               + "".join(f"step {n} loss 2.{n}\n" for n in range(40)))
    assert diagnose(from_text(went_on, "went_on.log")).status == "no_failure"


RUN_END = "Epoch 3: 100%|##########| 500/500 [01:00<00:00]\n{}\nTraining completed.\n"


@pytest.mark.parametrize("line", [
    # bitsandbytes 0.37-0.41 without GPU support: its CPU library misses GPU symbols
    "/usr/local/lib/python3.10/dist-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined "
    "symbol: cadam32bit_grad_fp32",
    # glog's and Ray's levels below error, cut off with the prefix
    "W1127 12:00:00.123000 1234 site-packages/torch/distributed/run.py:793] Cleanup failed: "
    "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/x'",
    "W1127 12:00:00.123000 1234 torch/_ops.py:88] /opt/ext/libcustom_ops.so: undefined symbol: "
    "optional_kernel_v2",
    "(raylet) [2025-01-01 12:00:00,123 I 1234 5678] core_worker.cc:900: Task failed: "
    "IntentionalError: expected",
    "[2025-01-01 12:00:00,123 E 1234 5678] gcs_rpc_client.h:179: Failed to connect to GCS "
    "at address 10.0.0.2:6379 within 5 seconds, will retry",
    # Ray's disk check, at its error level every few seconds of a run that goes on
    "(raylet) [2025-08-10 22:43:27,018 E 18695 18729] file_system_monitor.cc:116: /tmp/ray/"
    "session_x is over 95% full, available space: 1.04582 GB; capacity: 30 GB. Object "
    "creation will fail if spilling is required.",
    # a metric named after an error, a count of failures, a health check, a retried upload
    "Epoch 9: MeanAbsoluteError: 0.4123, MeanSquaredError: 0.3012",
    "Tests failed: 0",
    "Health Check failed: endpoint not ready yet",
    "Upload attempt 1 failed: ConnectionError: timed out; 2 retries left",
    # an optional import a library fell back from
    "Could not import flash_attn: ImportError: cannot import name 'flash_attn_func' from "
    "'flash_attn' (unknown location); falling back to sdpa",
    # TensorRT's allocator complaining as it tears a context down
    "[TRT] [E] 1: [defaultAllocator.cpp::deallocate::42] Error Code 1: Cuda Runtime (invalid "
    "argument)",
    # a side tool's error before the run's own last line
    "[12:00:00] tensorboard: OSError: [Errno 98] Address already in use (tensorboard not "
    "started)",
    # kubectl: a pod that errored once in a job that completed
    "NAME                        READY   STATUS      RESTARTS   AGE\n"
    "pytorchjob-mnist-worker-0   0/1     Error       0          12m\n"
    "pytorchjob-mnist-worker-0-x 0/1     Completed   1          10m",
])
def test_what_a_working_run_prints_near_its_end_is_no_failure(line):
    text = RUN_END.format(line)
    assert diagnose(from_text(text, "ok.log")).status == "no_failure"


@pytest.mark.parametrize("line", [
    "[12:00:00] trainer: RuntimeError: the frobnicator refused widget 7",
    "Training failed: the frobnicator refused widget 7",
    "[Errno 2] No such file or directory: 'saved/widget.log'",
    # Ray's C++ worker at its error level, giving up
    "[2023-09-29 11:00:15,624 E 2740790 2740790] core_worker.cc:203: Failed to register "
    "worker 01000000ffff to Raylet. IOError: [RayletClient] Unable to register worker with "
    "raylet. No such file or directory",
    "[2025-06-01 09:00:00,001 E 4242 4242] (raylet) node_manager.cc:1100: The raylet exited "
    "immediately because one Ray agent failed, agent_name = dashboard_agent/424238.",
])
def test_a_tools_error_on_the_last_line_is_a_failure(line):
    text = "Epoch 3: 100%|##########| 500/500 [01:00<00:00]\n" + line + "\n"
    assert diagnose(from_text(text, "end.log")).status == "diagnosed"
    assert diagnose(from_text(RUN_END.format(line), "went_on.log")).status == "no_failure"


def test_lines_of_runs_that_went_on_are_no_failure():
    """An error a logger reported and the run recovered from, bash's notes on a helper the
    script killed and on its own harmless errors, a pod's earlier exit: runs that worked
    print them before their last lines."""
    text = ("/var/spool/slurmd/job123456/slurm_script: line 9: module: command not found\n"
            "/opt/conda/etc/profile.d/conda.sh: line 35: PS1: unbound variable\n"
            "2024-05-01 12:03:11,456 - urllib3.connectionpool - ERROR - Connection pool is "
            "full, discarding connection: huggingface.co\n"
            "2024-05-01 12:00:05.456 | ERROR    | data.webdataset:decode:88 - Skipping corrupt"
            " sample 000123.jpg: cannot identify image file\n"
            "2024-05-01 12:00:06,001\tERROR widget.py:88 -- Skipping corrupt sample 000124.jpg\n"
            "    State:          Running\n    Last State:     Terminated\n      Reason:       "
            "Error\n      Exit Code:    1\n    Ready:          True\n"
            + "".join(f"epoch 1 step {n} loss 1.02\n" for n in range(40))
            + "+ kill 4242\ntrain.sh: line 18:  4242 Terminated              tensorboard "
            "--logdir runs\n[1]+  Terminated              nvidia-smi dmon\nTraining finished\n")
    assert diagnose(from_text(text, "went-on.log")).status == "no_failure"


def test_a_failure_after_many_candidate_lines_is_still_found():
    """The lines worth a look are counted by line, and a log whose first lines use them up
    is read at its end too (a failure is nearly always there)."""
    noisy = ("Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is deprecated; use "
             "TORCH_NCCL_ASYNC_ERROR_HANDLING instead\n") * 21_000
    result = diagnose(from_text(noisy + "Fatal: unable to read shard 17 of /data/train\n",
                                "noisy.log"))
    assert result.status == "diagnosed"
    assert result.findings[0].evidence[0].text.startswith("Fatal: unable to read shard 17")


@pytest.mark.parametrize("exception", [
    "socket.timeout: timed out",
    "ray.exceptions.RayTaskError(WidgetError): ray::Widget.frob() (pid=81, ip=10.0.0.3)",
])
def test_an_exception_line_of_other_forms_ends_a_traceback(exception):
    text = ("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
            "    frob()\n" + exception + "\n")
    result = diagnose(from_text(text, "case.log"))
    assert result.findings[0].id == "python-exception"
    assert exception in result.findings[0].evidence[0].text


def test_unknown_failure_shows_its_evidence():
    text = ("(RayTrainWorker pid=812, ip=10.0.0.3) Epoch 3 step 120\n"
            "(RayTrainWorker pid=812, ip=10.0.0.3) FancyLibError: widget 7 is frobnicated\n")
    result = diagnose(from_text(text, "ray.log"))
    assert result.status == "diagnosed" and result.findings[0].id == "failure-shown"
    assert "FancyLibError: widget 7 is frobnicated" in result.findings[0].evidence[0].text
    assert "A failure no rule knows" in render(result)


def test_a_specific_cause_beats_the_peers_timeout():
    text = ("[rank0]:[E1206 18:44:12.715 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught "
            "collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, "
            "NumelOut=1, Timeout(ms)=600000) ran for 600061 milliseconds before timing out.\n"
            "[rank1]: RuntimeError: Tensors must be CUDA and dense\n")
    result = diagnose(from_text(text, "case.log"))
    assert [f.id for f in result.findings][:2] == ["nccl-cpu-tensor", "collective-timeout"]
    assert result.root_cause_rank == 1


# Logs as users paste them into an issue or a chat: typographic dashes and quotes, markdown
# quoting around the failing line, a traceback cut before its exception.
@pytest.mark.parametrize(("text", "rule_id"), [
    ("main.py: error: unrecognized arguments: \u2013local_rank=3\n", "local-rank-argument"),
    ("> `RuntimeError: use_libuv was requested but PyTorch was build without libuv support`\n",
     "libuv-missing"),
    ("torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal "
     "SIGKILL\n", "oom-killer"),
    ("Epoch 3 | step 200 | Loss is nan, stopping training\n", "nan-loss"),
    ("Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 0.25\n",
     "fp16-loss-scale"),
    ("KeyError: 'unexpected key \"module.fc.weight\" in state_dict'\n", "state-dict-keys"),
    # newer Ray's core worker whose raylet closed the socket (where the log ends there)
    ("core_worker_process.cc:232: Failed to register worker to Raylet: IOError: Failed to read "
     "data from the socket: End of file\n", "ray-worker-register-failed"),
    # DGL's device check; finetrainers' parallel degrees; HCCL's port; torch 0.4's spawn
    ("dgl._ffi.base.DGLError: Cannot assign node feature \"h\" on device cuda:0 to a graph on "
     "device cpu. Call DGLGraph.to() to copy the graph to the same device.\n",
     "device-mismatch"),
    ("2025-05-22 03:33:36 - [ERROR] - An error occurred during training: World size 2 must be "
     "divisible by the product of all parallel degrees and data parallel shards.\n",
     "device-mesh-too-big"),
    ("[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.312 [hccl_socket.cc:106] [60570][HcclSocket]"
     "[Listen] socket type[0], listen on ip[192.2.2.195] and specific port[16666] fail. Please "
     "check the port status and whether the port is being used by other process.\n",
     "address-in-use"),
    (TRACE + "    mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))\n"
     "AttributeError: module 'torch.multiprocessing' has no attribute 'spawn'\n",
     "torch-too-old-for-api"),
    # a name too new for this Python, looked for in the standard library's own file
    ("ImportError: cannot import name 'StrEnum' from 'enum' (/usr/lib/python3.10/enum.py)\n",
     "module-not-found"),
    ("ImportError: cannot import name 'Literal' from 'typing' (C:\\Users\\me\\AppData\\Local\\"
     "Programs\\Python\\Python37\\lib\\typing.py)\n", "module-not-found"),
    ("ImportError: cannot import name 'Self' from 'typing' (/home/me/proj/typing.py)\n",
     "local-module-shadows-package"),
    ("ImportError: cannot import name 'load_dataset' from 'datasets' (/home/swarnava/proj/"
     "datasets.py)\n", "local-module-shadows-package"),
    # torch.distributed's names read as attributes: a newer API, a submodule torch imports only
    # when asked, a typo Python corrects, a backend this build lacks
    (TRACE + "AttributeError: module 'torch.distributed' has no attribute 'DeviceMesh'\n",
     "torch-too-old-for-api"),
    (TRACE + "AttributeError: module 'torch.distributed' has no attribute 'checkpoint'\n",
     "library-version-skew"),
    (TRACE + "AttributeError: module 'torch.distributed' has no attribute 'all_gather_into_tensr'"
     ". Did you mean: 'all_gather_into_tensor'?\n", "python-exception"),
    (TRACE + "AttributeError: module 'torch.distributed' has no attribute 'ProcessGroupNCCL'. "
     "Did you mean: 'ProcessGroup'?\n", "python-exception"),
    # early apex's words; 3.9+'s ArgumentError; the launcher's own parser is not the script's
    (TRACE + "RuntimeError: Incoming model is an instance of torch.nn.DataParallel. Parallel "
     "wrappers should only be applied AFTER the model(s) have been returned from "
     "amp.initialize.\n", "apex-amp-after-parallel-wrapper"),
    (TRACE + "argparse.ArgumentError: unrecognized arguments: --world_size 8\n",
     "script-argument-unrecognized"),
    (TRACE + "RuntimeError: Error: accessing gradient tensor output of CUDAGraphs that has been "
     "overwritten by a subsequent run. Stack trace: x.\n", "cudagraph-output-overwritten"),
    # megatron-core 0.16's checkpoint mapping asked for the old optimizer format
    ("megatron.core.dist_checkpointing.core.CheckpointingException: ShardedTensor."
     "flattened_range is not supported.\n", "library-version-skew"),
    # Python 3.14's hints (3.13's and older forms: wordings/pyimport.py): a project file named
    # like a library, or like a standard library module
    ("AttributeError: module 'numpy' has no attribute 'array' (consider renaming "
     "'/home/me/numpy.py' if it has the same name as a library you intended to import)\n",
     "local-module-shadows-package"),
    ("AttributeError: module 'random' has no attribute 'randint' (consider renaming "
     "'/home/me/random.py' since it has the same name as the standard library module named "
     "'random' and prevents importing that standard library module)\n",
     "local-module-shadows-package"),
    ("ImportError: cannot import name 'AutoModel' from partially initialized module "
     "'transformers' (most likely due to a circular import) (C:\\proj\\transformers.py)\n",
     "local-module-shadows-package"),
    # an editable install's package is outside site-packages, and is the library itself
    ("ImportError: cannot import name 'AutoModel' from 'transformers' "
     "(/home/me/transformers/src/transformers/__init__.py)\n", "library-version-skew"),
])
def test_pasted_logs(text, rule_id):
    assert diagnose(from_text(text, "pasted.log")).findings[0].id == rule_id


def test_typographic_characters_keep_line_numbers():
    result = diagnose(from_text("step 1 \u2014 ok\nstep 2 \u201cfine\u201d\n"
                                "RuntimeError: Tensors must be CUDA and dense\n", "x.log"))
    assert result.findings[0].evidence[0].line == 3


def test_an_ordinary_loss_scale_drop_is_quiet():
    text = ("Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0\n"
            "epoch 1 iter 20 loss 0.713\n")
    assert diagnose(from_text(text, "amp.log")).status == "no_failure"


def test_spawn_reports_the_root_rank_and_signal():
    text = ("torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with "
            "exit code 1\n")
    logs = from_text(text, "spawn.log")
    assert (logs.root_rank, logs.root_returncode) == (3, 1)


def test_a_traceback_cut_before_its_exception_is_a_failure():
    text = ('  File "/opt/torch/distributed/distributed_c10d.py", line 423, in init\n'
            "    store, rank, world_size = next(rendezvous_iterator)\n"
            '  File "/opt/torch/distributed/rendezvous.py", line 133, in _tcp_handler\n'
            "    store = TCPStore(result.hostname, result.port, world_size)\n")
    result = diagnose(from_text(text, "cut.log"))
    assert result.status == "diagnosed" and result.findings[0].id == "failure-shown"
    assert diagnose(from_text(text.split("\n", 2)[2], "one-frame.log")).status == "no_failure"


def test_a_message_wrapped_by_the_terminal_is_read_joined():
    text = ("epoch 4 step 1200 loss 0.31\n"
            "[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691, "
            "invalid usage, NCCL version 2.19.3 ncclInvalidUsage: Duplicate GPU\n"
            "detected : rank 1 and rank 0 both on CUDA device 1000\n")
    result = diagnose(from_text(text, "wrapped.log"))
    assert result.findings[0].id == "nccl-duplicate-gpu"
    assert result.findings[0].evidence[0].line == 2


def _cut(text: str, width: int) -> str:
    """``text`` as a terminal ``width`` columns wide shows it."""
    return "".join(line[at:at + width] + "\n" for line in text.splitlines()
                   for at in range(0, len(line) or 1, width))


def test_lines_a_terminal_cut_at_its_width_are_read_joined():
    # long lines cut at an unusual width (77), "Duplicate GPU" among the cuts: the width the
    # longest lines share (the generic invalid-usage rule reads the pieces)
    text = _cut("[rank1]: Traceback (most recent call last): File \"/workspace/train.py\", line "
                "212, in train_step: loss.backward()\n[rank1]: torch.distributed."
                "DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691, invalid usage, NCCL "
                "version 2.19.3 ncclInvalidUsage: Duplicate GPU detected : rank 3 and rank 1 both "
                "on CUDA device 1000\n", 77)
    assert diagnose(from_text(text, "x.log")).findings[0].id == "nccl-duplicate-gpu"
    # one line cut at a terminal's usual width: torchrun's report of the rank it lost
    report = _cut("E0612 10:20:42.123000 1234 torch/distributed/elastic/multiprocessing/api.py:881] "
                  "failed (exitcode: -9) local_rank: 1 (pid: 1235) of binary: /usr/bin/python3\n",
                  100)
    finding = diagnose(from_text(report, "x.log")).findings[0]
    assert (finding.id, finding.rank) == ("oom-killer", 1)


def test_a_line_of_a_terminals_width_before_an_error_is_not_quoted_with_it():
    # a whole line of 80 characters, then the error: joined, they would be quoted again, at
    # the first one's line, with the first one's words
    text = ("step 1\n" + "[2024-05-01 10:00:00] loading checkpoint shards from /data/models/"
            "llama-7b/model-00001"[:80] + "\nRuntimeError: CUDA error: out of memory\nnext\n")
    evidence = diagnose(from_text(text, "x.log")).findings[0].evidence
    assert [(e.line, e.text) for e in evidence] == [
        (3, "RuntimeError: CUDA error: out of memory")]


def test_a_killed_line_glued_to_a_line_of_a_terminals_width_still_fails():
    bar = "Epoch 3:  45%|####5     | 450/1000 [12:01<14:40,  1.60s/it, loss=0.231, v_num=7]"
    assert len(bar) == 80
    assert from_text("loading data\n" + bar + "\nKilled\n", "x.log").failing


def test_records_of_one_length_are_no_terminal_cut():
    from safelaunch.diagnose.reading import Text, unwrapped
    warning = ("[W1123 23:05:44 socket.cpp:764] [c10d] The IPv6 network addresses of (node-0, "
               "29555) cannot be retrieved.\n")
    assert unwrapped(Text(warning * 3 + "[rank0]: step 1 loss 2.3\n")) is None


def test_short_lines_are_never_joined():
    from safelaunch.diagnose.reading import Text, unwrapped
    assert unwrapped(Text("Epoch 1\nloss 0.3\nvalidation done\n")) is None
    assert unwrapped(Text("x" * 50 + ".\nnext sentence starts here\n")) is None


def test_a_line_cut_once_at_a_windows_own_width_is_read_joined():
    """A terminal of any width cuts the one line longer than it: where the cut splits a word,
    the two halves are one line."""
    line = ("[E ProcessGroupGloo.cpp:138] Gloo connectFullMesh failed with [/opt/gloo/transport/"
            "tcp/device.cc:88] ifa != nullptr. Unable to find address for: eth0")
    cut = line.index("Unabl") + 5
    text = "step 0 starting\n" + line[:cut] + "\n" + line[cut:] + "\n"
    assert diagnose(from_text(text, "cut.log")).findings[0].id == "gloo-socket-ifname"


@pytest.mark.parametrize(("text", "rule_id"), [
    ("slurmstepd: error: *** JOB 4191701 ON c5-1 CANCELLED AT\n2021-08-17T15:09:00 DUE TO "
     "TIME LIMIT ***\n", "slurm-time-limit"),
    ("epoch 1 step 20 loss 0.41\ntorch.distributed.elastic.multiprocessing.api: [ERROR] "
     "failed (exitcode:\n-9) local_rank: 1 (pid: 14447) of binary:\n/usr/bin/python3\n",
     "oom-killer"),
])
def test_a_paragraph_filled_at_words_is_read_joined(text, rule_id):
    """A mail, an editor or a forum fills a long line at words: the break is where the next
    word would not have fitted, whatever it starts with (a date, a digit, a sign)."""
    assert diagnose(from_text(text, "filled.log")).findings[0].id == rule_id


def test_records_and_sentences_are_no_fill():
    from safelaunch.diagnose.reading import Text, unwrapped
    steps = "".join(f"Epoch {n}: 100%|##########| 500/500 [01:00<00:00, loss=0.{n}]\n"
                    for n in range(5))
    assert unwrapped(Text(steps)) is None
    sentences = ("The model was saved to the directory that the run was given.\n"
                 "Training finished after three epochs without a problem.\n")
    assert unwrapped(Text(sentences)) is None
    # a logger's records, each the first of its kind after the longest; nccl-tests' table
    # and its comment
    records = ("[INFO|trainer.py:1142] 2021-02-23 12:53:06,799 >> Num examples = 1000\n"
               "[INFO|trainer.py:1143] 2021-02-23 12:53:06,800 >> Num Epochs = 3 of many\n"
               "[WARNING|trainer.py:1142] 2021-02-23 12:53:06,801 >> skipping step 7\n"
               "    134217728      33554432     float     sum      -1    1203.1  111.56  209.1\n"
               "# Errors with asterisks indicate errors that have exceeded the maximum\n")
    assert unwrapped(Text(records)) is None


# IPython 9.18's own traceback (a notebook, Jupyter, notebook_launcher's cell): a frame is
# "File PATH:N, in f(args)", the notebook's cell is "Cell In[n], line N", and the source
# around each frame is shown with its line numbers
IPYTHON_TRACEBACK = (
    "---------------------------------------------------------------------------\n"
    "FrobError                                 Traceback (most recent call last)\n"
    "Cell In[3], line 1\n"
    "----> 1 run()\n\n"
    "Cell In[2], line 3, in run()\n"
    "      1 def run():\n"
    "      2     x = 7\n"
    "----> 3     widgetlib.frob(x)\n\n"
    "File ~/venv/lib/python3.11/site-packages/widgetlib.py:6, in frob(widget)\n"
    "      4 def frob(widget):\n"
    "      5     if widget > 3:\n"
    "----> 6         raise FrobError(\n"
    "      7             \"widget is frobnicated \"\n"
    "      8             \"beyond repair\")\n\n"
    "FrobError: widget is frobnicated beyond repair\n")


@pytest.mark.parametrize(("frames", "where"), [
    ({}, "Cell In[2]:3 in run"),
    ({"Cell In[2], line 3, in run()": "File ~/project/train.py:3, in run()"},
     "train.py:3 in run"),
    # Windows, and a folder with a space in its name
    ({"Cell In[2], line 3, in run()": "File C:\\Users\\me\\project\\train.py:3, in run()"},
     "train.py:3 in run"),
    ({"Cell In[2], line 3, in run()": "File ~/My Drive/project/train.py:3, in run()"},
     "train.py:3 in run"),
    # IPython 8.0 to 8.4 (8.4.0's own words)
    ({"Cell In[3], line 1": "Input In [3], in <cell line: 0>()",
      "Cell In[2], line 3, in run()": "Input In [2], in run()"}, "Input In [2] in run"),
    # IPython 7 (7.34.0's own words): no line numbers, the library's frame a bare path
    ({"Cell In[3], line 1": "<ipython-input-3-ec9775ede022> in <cell line: 0>()",
      "Cell In[2], line 3, in run()": "<ipython-input-2-ba63a9f59e67> in run()",
      "File ~/venv/lib/python3.11/site-packages/widgetlib.py:6, in frob(widget)":
      "~/venv/lib/python3.11/site-packages/widgetlib.py in frob(widget)"},
     "<ipython-input-2-ba63a9f59e67> in run"),
])
def test_a_notebooks_traceback_names_the_frame_it_came_from(frames, where):
    text = IPYTHON_TRACEBACK
    for old, new in frames.items():
        text = text.replace(old, new)
    finding = diagnose(from_text(text, "notebook.log")).findings[0]
    assert finding.evidence[0].text.endswith(f"(raised at {where})")


def test_a_tracebacks_last_source_line_is_not_filled_into_its_exception():
    """A source line as long as the log's longest and the exception after it: a traceback,
    not a fill (nor a traceback cut before its exception)."""
    text = ('Traceback (most recent call last):\n  File "/home/alice/proj/train.py", line 88, in '
            "<module>\n    torch.cuda.set_device(args.local_rank % torch.cuda.device_count())\n"
            "ZeroDivisionError: integer division or modulo by zero\n")
    finding = diagnose(from_text(text, "tb.log")).findings[0]
    assert finding.id == "python-exception"
    assert finding.evidence[0].text.endswith("(raised at train.py:88 in <module>)")


@pytest.mark.parametrize("text", [
    # a sentence a page wrapped, and one line a terminal of 96 columns cut in a word
    "when I launch with torchrun on two nodes the second node fails right away with "
    "ModuleNotFoundError: No\nmodule named 'mypkg' but the first node is fine\n",
    "[rank1]: step 0 starting, then it fails at start-up with this error at start-up: ModuleNo"
    "tFo\nundError: No module named 'mypkg'\n",
])
def test_a_joined_line_where_the_log_stops_shows_its_failure(text):
    assert diagnose(from_text(text, "q.log")).findings[0].id == "module-not-found"


def test_a_line_and_the_next_record_are_no_cut_word():
    """Not joined without a space as a terminal's cut (a page's wrap may still read it on)."""
    from safelaunch.diagnose.reading import Text, unwrapped
    text = ("The model was evaluated on the following tasks with the default templates each\n"
            "hellaswag\tacc\t0.7921\nboolq\tacc\t0.8312\n")
    joined = unwrapped(Text(text))
    assert joined is not None and "eachhellaswag" not in joined.text
    cut = unwrapped(Text("A line that is the longest of this short log; a terminal cut it in a"
                         " wo\nrd\n"))
    assert cut is not None and "in a word" in cut.text


def test_a_log_wider_than_a_fill_is_not_read_as_one():
    from safelaunch.diagnose.reading import Text, unwrapped
    text = "x" * 161 + "\n" + "A long line of the run that says what it did, long enough to count\n" \
        + "Epoch 1 finished\n"
    assert unwrapped(Text(text)) is None


# PhysX drops the contacts that do not fit and goes on: its overflow line is the cause where
# the log stops at it or at the crash it leads to, never before another failure or a finish
PHYSX_LINES = [
    "[2025-03-06 18:26:36.049] [SAPIEN] [critical] Patch buffer overflow detected, please "
    "increase its size to at least 2194799 in the scene desc!",
    "[Error] [omni.physx.plugin] PhysX error: the application need to increase the "
    "PxgDynamicsMemoryConfig::foundLostPairsCapacity parameter to 165721092, otherwise the "
    "simulation will miss interactions",
    "2025-05-01 10:00:00 [Error] [omni.physx.plugin] PhysX error: PxGpuDynamicsMemoryConfig::"
    "collisionStackSize buffer overflow detected, please increase its size to at least "
    "297529608 in the scene desc! Contacts have been dropped.",
]
ENVS = "[INFO]: Number of environments: 4096\n"


@pytest.mark.parametrize("line", PHYSX_LINES)
def test_a_physics_buffer_overflow_is_the_cause_where_the_run_stops(line):
    assert diagnose(from_text(ENVS + line + "\n", "isaac.log")).findings[0].id == \
        "gpu-physics-buffer-too-small"
    crashed = ENVS + line + "\nLearning iteration 3/1500\nSegmentation fault (core dumped)\n"
    assert diagnose(from_text(crashed, "isaac.log")).findings[0].id == \
        "gpu-physics-buffer-too-small"
    finished = (ENVS + line + "\nLearning iteration 1499/1500  mean reward 212.3\n"
                "Saved checkpoint to logs/model_1499.pt; training finished\n")
    assert diagnose(from_text(finished, "isaac.log")).status == "no_failure"
    own_error = (ENVS + line + "\n" + TRACE.replace("train.py", "my_env.py")
                 + "KeyError: 'alive'\n")
    assert diagnose(from_text(own_error, "isaac.log")).findings[0].id == "python-exception"


def test_an_exception_quoted_in_a_sentence_is_a_failure():
    text = 'when I start the second node I get "FancyLibError: widget 7 is frobnicated"\n'
    result = diagnose(from_text(text, "question.txt"))
    assert result.findings[0].id == "failure-shown"
    assert diagnose(from_text('saved "model.pt" after epoch 3\n', "ok.log")).status == \
        "no_failure"


def test_a_cause_known_by_its_signal_quotes_the_report():
    text = ("epoch 2 step 40 loss 0.52\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) "
            "local_rank: 2 (pid: 4141) of binary: /usr/bin/python\n")
    finding = diagnose(from_text(text, "torchrun.log")).findings[0]
    assert finding.id == "oom-killer" and finding.rank == 2
    assert "failed (exitcode: -9) local_rank: 2" in finding.evidence[0].text


# NCCL's socket transport names a connect that failed in its own words: a network problem
# (the wrong interface, a firewall), whatever the exception wrapped around it says.
def test_nccl_socket_connect_failure_is_the_network():
    text = ("[rank3]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:"
            "2006, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version "
            "2.21.5\n[rank3]: ncclSystemError: System call (e.g. socket, malloc) or external "
            "library call failed or device error.\n[rank3]: Last error:\n[rank3]: "
            "socketStartConnect: Connect to 10.1.2.7<43117> failed : Connection refused\n")
    assert diagnose(from_text(text, "case.log")).findings[0].id == "nccl-network"
    near = "node-2:811:902 [0] NCCL INFO socketStartConnect: Connect to 10.1.2.7<43117> ok\n"
    assert not diagnose(from_text(near, "case.log")).findings



def test_older_nccls_warnings_without_their_name_are_read():
    """NCCL before 2.4 wrote ``file:line WARN`` without "NCCL" before WARN."""
    text = "include/socket.h:344 WARN Socket creation failed : Address family not supported\n"
    assert diagnose(from_text(text, "case.log")).findings[0].id == "nccl-network"
    near = "include/socket.h:344 INFO Socket created on interface eth0\n"
    assert not diagnose(from_text(near, "case.log")).findings


def test_a_failed_pytest_tests_exception_is_a_failure():
    """pytest marks the lines of a failed test's exception with ``E`` and spaces."""
    text = ("    def test_widget():\n>       frobnicate(widget)\n"
            "E       WidgetError: widget 7 is frobnicated\n\ntests/test_widget.py:12: "
            "WidgetError\n")
    result = diagnose(from_text(text, "pytest.log"))
    assert result.findings[0].id == "failure-shown", result
    evidence = result.findings[0].evidence[0]
    assert (evidence.line, evidence.text) == (3, "WidgetError: widget 7 is frobnicated")
    assert diagnose(from_text("E    0.25 loss after 3 epochs\n", "x.log")).status == "no_failure"

# Slurm cancels a step whose cgroup OOM-killed a task: the cancellation is Slurm's reaction,
# the OOM kill (quoted by slurmstepd) is the cause.  A cancellation alone stays a cancellation.
def test_an_oom_killed_slurm_step_is_the_oom_killer():
    text = ("slurmstepd: error: Detected 2 oom_kill events in StepId=7781.0. Some of the step "
            "tasks have been OOM Killed.\nsrun: error: gpu-a12: task 1: Out Of Memory\n"
            "slurmstepd: error: *** STEP 7781.0 ON gpu-a12 CANCELLED AT 2025-03-02T11:04:19 ***\n")
    assert diagnose(from_text(text, "case.log")).findings[0].id == "oom-killer"
    cancelled = "slurmstepd: error: *** STEP 7781.0 ON gpu-a12 CANCELLED AT 2025-03-02T11:04:19 ***\n"
    assert diagnose(from_text(cancelled, "case.log")).findings[0].id == "slurm-cancelled"


def test_a_bus_error_known_only_by_its_exit_points_at_shared_memory():
    # DeepSpeed's launcher reports the rank's signal as a negative return code, and nothing
    # else in the log names it (a container's 64 MB /dev/shm, in the thread that taught it)
    text = ("[2024-01-02 10:00:00,001] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/"
            "python', '-u', 'train.py', '--local_rank=0'] exits with return code = -7\n")
    result = diagnose(from_text(text, "ds.log"))
    assert result.root_exit == "SIGBUS"
    assert [f.id for f in result.findings] == ["bus-error"]
    assert any("--shm-size" in fix for fix in result.findings[0].fixes)
    # a plain exit code 7 is no bus error
    other = diagnose(from_text(text.replace("= -7", "= 7"), "ds.log"))
    assert "bus-error" not in [f.id for f in other.findings]


def test_a_wrapper_that_ran_the_job_with_check_true_reports_its_exit():
    # Python's CalledProcessError, which `accelerate launch` and similar wrappers raise
    killed = ("subprocess.CalledProcessError: Command '['/usr/bin/python', 'train.py', "
              "'--bs', '8']' died with <Signals.SIGKILL: 9>.\n")
    result = diagnose(from_text(killed, "accelerate.log"))
    assert result.root_exit == "SIGKILL"
    assert result.findings[0].id == "oom-killer"
    failed = killed.replace("died with <Signals.SIGKILL: 9>", "returned non-zero exit status 3")
    result = diagnose(from_text(failed, "accelerate.log"))
    assert result.status == "diagnosed" and result.findings[0].id == "nonzero-exit"
    assert "SIGKILL" not in (result.root_exit or "")


def test_an_exit_code_beside_an_error_of_the_ranks_own_is_no_exit_without_a_message():
    exited = ("[launch.py:315:sigkill_handler] Killing subprocess 40970\n[ERROR] [launch.py:321:"
              "sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=1'"
              + ", '--data', '/d/x.json'" * 20 + "] exits with return code = 1\n")
    # only the launcher's report, however long the command line it quotes: no message
    assert diagnose(from_text(exited, "ds.log")).findings[0].id == "nonzero-exit"
    # an exception line whose traceback the excerpt cut: the message is there
    cut = "ZeroDivisionError: integer division or modulo by zero\n" + exited
    result = diagnose(from_text(cut, "ds.log"))
    assert result.findings[0].id == "failure-shown"
    assert "ZeroDivisionError" in result.findings[0].evidence[0].text


def test_a_pod_the_kubelet_oom_killed_is_the_oom_killer():
    described = ("    State:          Terminated\n      Reason:       OOMKilled\n      Exit "
                 "Code:    137\n")
    listed = "pytorch-job-worker-1   0/1     OOMKilled   2          14m\n"
    for text in (described, listed):
        assert diagnose(from_text(text, "kubectl.log")).findings[0].id == "oom-killer"
    # docker inspect's healthy state names the field with false: no failure
    inspected = '"State": {"Status": "exited", "Running": false, "OOMKilled": false, "Dead": false}\n'
    assert diagnose(from_text(inspected, "docker.log")).status == "no_failure"


@pytest.mark.parametrize(("text", "rule_id"), [
    # PyTorchStreamWriter's position check: a write the full disk cut short
    (TRACE + "RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos "
     "2112 vs 2006\n", "disk-full"),
    # c10d's store socket giving up while a peer never answered
    (TRACE + "RuntimeError: Socket Timeout\n", "store-timeout"),
    (TRACE + "RuntimeError: CUDA driver error: out of memory\n", "cuda-oom"),
    # NCCL's own allocation failing: a CUDA OOM, not an NCCL problem
    ("node1:77:91 [0] include/alloc.h:103 NCCL WARN Cuda failure 'out of memory'\n" + TRACE
     + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
     "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n",
     "cuda-oom"),
    # the CUDA runtime's words for a driver that does not match its libraries (error 803)
    (TRACE + "RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 803: system has "
     "unsupported display driver / cuda driver combination\n", "driver-library-mismatch"),
    # a git-lfs pointer or an HTML page saved as the checkpoint
    (TRACE + "_pickle.UnpicklingError: invalid load key, 'v'.\n", "checkpoint-corrupt"),
    (TRACE + "_pickle.UnpicklingError: invalid load key, '<'.\n", "checkpoint-corrupt"),
    # NCCL's socket transport told to connect to the loopback a hostname resolved to
    ("node2:311:402 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
     "127.0.1.1<46329> failed : Software caused connection abort\n" + TRACE
     + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
     "unhandled system error\n", "hostname-loopback"),
    # the other wordings of the accelerator rules
    (TRACE + "RuntimeError: HIP error: invalid device function\nHIP kernel errors might be "
     "asynchronously reported at some other API call, so the stacktrace below might be "
     "incorrect.\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3\n",
     "rocm-gpu-arch-unsupported"),
    (TRACE + "RuntimeError: Bad StatusOr access: UNKNOWN: TPU initialization failed: "
     "open(/dev/accel0): Device or resource busy: rc=-1\n", "tpu-in-use"),
    (TRACE + "RuntimeError: Failed to initialize TPU system with error: FAILED_PRECONDITION: "
     "open(/dev/vfio/0): Device or resource busy\n", "tpu-in-use"),
    ("2024-Jan-01 10:00:00.0001 311:311 ERROR  NRT:nrt_allocate_neuron_cores  Logical Neuron "
     "Core(s) not available - Requested:lnc0-lnc15 Available:0 Logical Core size:1 (cores busy, "
     "ret=-16)\n", "neuron-cores-busy"),
    (TRACE + "RuntimeError: synStatus=20 [Device already acquired] Device acquire failed.\n",
     "hpu-busy"),
    (TRACE + "AssertionError: Unknown c10d backend type HCCL\n", "c10d-backend-not-imported"),
    (TRACE + "ValueError: Invalid backend: 'ccl'\n", "c10d-backend-not-imported"),
    (TRACE + "RuntimeError: No rendezvous handler for pjrt://\n", "xla-rendezvous-handler"),
    (TRACE + "ValueError: We detected accelerator hpu on your machine. But we don't know which "
     "communication backend to use for this accelerator. Please specify the `backend` argument "
     "in the `init_process_group` call.\n", "accelerator-no-default-backend"),
    (TRACE + "NotImplementedError: The operator 'c10d::broadcast_' is not currently implemented "
     "for the MPS device.\n", "mps-collective-unsupported"),
    (TRACE + "NotImplementedError: The operator 'aten::upsample_bicubic2d.out' is not currently "
     "implemented for the MPS device.\n", "mps-op-not-implemented"),
    # older torch: "not current implemented"
    (TRACE + "NotImplementedError: The operator 'aten::nonzero' is not current implemented for "
     "the MPS device. If you want this op to be added in priority\n", "mps-op-not-implemented"),
    (TRACE + "MisconfigurationException: `MPSAccelerator` can not run on your system since the "
     "accelerator is not available.\n", "lightning-accelerator-unavailable"),
    (TRACE + "RuntimeError: makeDeviceForHostname(): unsupported gloo device\n",
     "windows-gloo-device"),
    ("2023-08-01 10:00:00.123456: F tensorflow/compiler/xla/xla_client/xla_util.cc:90] (1) "
     "RESOURCE_EXHAUSTED: Attempting to reserve 6.48G at the bottom of memory. That was not "
     "possible. There are 6.78G free, 0B reserved, and 3.33G reservable.\n", "xla-hbm-oom"),
    ("E tensorflow/compiler/xla/xla_client/xla_util.cc:76] Resource exhausted: Attempting to "
     "allocate 180.59M. That was not possible. There are 142.58M free.; (0x3x0_HBM1)\nException "
     "in device=TPU:3: Resource exhausted\n", "xla-hbm-oom"),
    # review: the PJRT runtime's words put the reason between the status and the size
    (TRACE + "RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error allocating device "
     "buffer: Attempting to allocate 196.00M. That was not possible. There are 134.44M free.; "
     "(1x0x0_HBM0): while running replica 0 and partition 0 of a replicated computation\n",
     "xla-hbm-oom"),
    ("2023-04-08 11:22:09.148143: F tensorflow/tsl/platform/statusor.cc:33] Attempting to fetch "
     "value instead of handling error RESOURCE_EXHAUSTED: Error loading program: Attempting to "
     "reserve 7.04G at the bottom of memory. That was not possible. There are 6.90G free, 0B "
     "reserved, and 6.90G reservable.\n*** SIGABRT received by PID 13755 (TID 16714) on cpu 80 "
     "from PID 13755; stack trace: ***\n", "xla-hbm-oom"),
    # review: Neuron's virtual cores (inf2/trn2), gloo told an interface, IPEX's sign as (R)
    ("2024-Dec-11 17:43:58.780308 45075:45075 ERROR   NRT:nrt_allocate_neuron_cores            "
     "   Virtual Neuron Core(s) not available - Requested:2 Available:0 Virtual Core size 1\n",
     "neuron-cores-busy"),
    (TRACE + "    dist.init_process_group('gloo')\nRuntimeError: makeDeviceForInterface(): "
     "unsupported gloo device\n", "windows-gloo-device"),
    ("ERROR! Intel(R) Extension for PyTorch* needs to work with PyTorch 2.1.*, but PyTorch "
     "2.2.0+cpu is found. Please switch to the matching version and run again.\n",
     "ipex-torch-mismatch"),
    # review: HCCL's EI0006 in its other reasons and layouts (a connect that never came)
    (TRACE + "RuntimeError: Preprocess failed before run graph 1.\nEI0006: Getting socket times "
     "out. Reason: 1. The remote does not initiate a connect request. some NPUs in the cluster "
     "are abnormal.\n", "ascend-hccl-socket-timeout"),
    ("[rank0] WARMUP FAIL @ iter 0: aclnnNotifyDispatch failed,\n        EI0006 "
     "Communication_Error_Get_Socket: Getting socket times out.\n", "ascend-hccl-socket-timeout"),
    # gloo's size check stays with the output-list rule, its type check names the device
    (TRACE + "RuntimeError: ProcessGroupGloo::allgather: invalid tensor size at index 0 "
     "(expected (2, 4), got (2, 3))\n", "collective-output-list"),
    # HCCL's socket timeout is an echo: a real cause in the same log wins
    ("[rank1]: EI0006: [PID: 1292363] Getting socket times out. Reason: Remote Rank did not send "
     "the data in time. Please check the reason for the rank being stuck\n" + TRACE
     + "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n"
     "EJ0001: Failed to initialize the HCCP process. Reason: Maybe the last training process is "
     "running.\n", "ascend-hccp-busy"),
    ("[rank1]: EI0006: [PID: 1292363] Getting socket times out. Reason: Remote Rank did not send "
     "the data in time. Please check the reason for the rank being stuck\n" + TRACE
     + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n", "cuda-oom"),
    # Python 3.14's wording, and its forkserver default on Linux
    (TRACE + "    for batch in loader:\n  File \"/usr/lib/python3.14/multiprocessing/"
     "popen_forkserver.py\", line 47, in _launch\n    reduction.dump(process_obj, buf)\n"
     "AttributeError: Can't get local object 'main.<locals>.collate'\n", "spawn-pickle"),
    # accelerate's notebook_launcher re-raises torch's words in its own
    (TRACE + "    notebook_launcher(train, (), num_processes=2)\nRuntimeError: CUDA has been "
     "initialized before the `notebook_launcher` could create a forked subprocess. This likely "
     "stems from an outside import causing issues once the `notebook_launcher()` is called.\n",
     "cuda-fork-after-init"),
    # torch.compile's _orig_mod. prefix is a state-dict-keys case (its fixes name it)
    (TRACE + "RuntimeError: Error(s) in loading state_dict for GPT:\n\tMissing key(s) in "
     "state_dict: \"transformer.wte.weight\".\n\tUnexpected key(s) in state_dict: "
     "\"_orig_mod.transformer.wte.weight\".\n", "state-dict-keys"),
    # nn.Module's load_state_dict stays state-dict-keys, not DCP's missing key
    (TRACE + "RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in "
     "state_dict: \"fc.weight\".\n", "state-dict-keys"),
    (TRACE + "RuntimeError: Distributed package doesn't have MPI built in\n",
     "mpi-backend-missing"),
    (TRACE + "OSError: No username set in the environment\n", "inductor-cache-no-username"),
    ("[rank1]: torch._dynamo.exc.FailOnRecompileLimitHit: Hard failure due to fullgraph=True\n",
     "compile-recompile-limit"),
    ("/tmp/torchinductor_u/cpp/x.cpp:2:10: fatal error: omp.h: No such file or directory\n"
     + TRACE + "torch._inductor.exc.InductorError: CppCompileError: C++ compile error\n",
     "inductor-openmp-missing"),
    (TRACE + "ValueError: Error in _create_cache_file: another metric instance is already using "
     "the local cache file at /root/.cache/huggingface/metrics/accuracy/default/"
     "default_experiment-2-1.arrow. Please specify an experiment_id to avoid collision\n",
     "evaluate-cache-collision"),
    (TRACE + "    raise ValueError(\"HydraConfig was not set\")\nValueError: HydraConfig was not "
     "set\n", "hydra-resolver-in-spawn"),
    # a user's own missing resolver is not Hydra's
    (TRACE + "omegaconf.errors.UnsupportedInterpolationType: Unsupported interpolation type "
     "oc.foo\n", "python-exception"),
    (TRACE + "ValueError: Must flatten tensors with uniform dtype but got torch.uint8 and "
     "torch.bfloat16\n", "fsdp-quantized-int8"),
    (TRACE + "ValueError: Must flatten tensors with uniform dtype but got torch.bfloat16 and "
     "torch.float32\n", "fsdp-mixed-dtype"),
    ("Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared "
     "object file: No such file or directory\nAborted (core dumped)\n", "cudnn-nvrtc-missing"),
    (TRACE + "OSError: [Errno 28] No space left on device\n", "disk-full"),
    (TRACE + "RuntimeError: No such operator fbgemm::asynchronous_complete_cumsum\n",
     "fbgemm-ops-missing"),
    # torch's own op namespace is a torch version matter, not fbgemm's
    (TRACE + "AttributeError: '_OpNamespace' 'aten' object has no attribute 'foo'\n",
     "python-exception"),
    # the undefined symbol of an fbgemm_gpu built for another torch names the cause first
    ("OSError: /venv/lib/python3.10/site-packages/fbgemm_gpu/fbgemm_gpu_py.so: undefined "
     "symbol: _ZNK5torch8autograd4Node4nameEv\n" + TRACE + "AttributeError: '_OpNamespace' "
     "'fbgemm' object has no attribute 'jagged_2d_to_dense'\n", "extension-abi-mismatch"),
    # schedulers', orchestrators' and storage clients' other wordings of the new causes
    ("slurmstepd: error: *** JOB 88123 ON gpu-node-01 CANCELLED AT 2024-03-11T04:12:55 DUE TO "
     "NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n", "slurm-node-failure"),
    ("srun: error: Unable to allocate resources: Memory required by task is not available\n",
     "slurm-step-memory-unavailable"),
    ("=>> PBS: job killed: vmem 99862528kb exceeded limit 67108864kb\n", "pbs-memory-limit"),
    # Torque's: bytes without a unit, or the job's total
    ("+ mpirun -n 8 python train.py\n=>> PBS: job killed: vmem 17223929856 exceeded limit "
     "17179869184\n", "pbs-memory-limit"),
    ("=>> PBS: job killed: mem job total 4323312 kb exceeded limit 3145728 kb\n",
     "pbs-memory-limit"),
    # streaming's check of one dataset's own streams, in its list and its older string wording
    (TRACE + "ValueError: Reused local directory: ['/tmp/mds']. Provide a different one.\n",
     "streaming-reused-local-dir"),
    (TRACE + "ValueError: Reused local directory: /tmp/mds. Provide a different one.\n",
     "streaming-reused-local-dir"),
    # the job's own record of the backoff limit, with nothing else: kubectl describe job
    ("Pods Statuses:  0 Active (0 Ready) / 0 Succeeded / 5 Failed\nEvents:\n  Warning  "
     "BackoffLimitExceeded  1m  job-controller  Job has reached the specified backoff limit\n",
     "k8s-job-backoff-limit"),
    ("status:\n  conditions:\n  - message: Job has reached the specified backoff limit\n    "
     "reason: BackoffLimitExceeded\n    type: Failed\n  failed: 5\n", "k8s-job-backoff-limit"),
    (TRACE + "ValueError: You set `num_nodes=1` in Lightning, but the number of nodes configured "
     "in SLURM `--nodes=2` does not match. HINT: Set `num_nodes=2`.\n",
     "lightning-slurm-mismatch"),
    (TRACE + "RuntimeError: You set `--ntasks=8` in your SLURM bash script, but this variable is "
     "not supported. HINT: Use `--ntasks-per-node=8` instead.\n", "lightning-slurm-mismatch"),
    ("Message: Pod ephemeral local storage usage exceeds the total limit of containers 20Gi.\n",
     "k8s-evicted-ephemeral-storage"),
    ("Message: Container pytorch exceeded its local ephemeral storage limit \"50Gi\".\n",
     "k8s-evicted-ephemeral-storage"),
    ("Message: Usage of EmptyDir volume \"dshm\" exceeds the limit \"8Gi\".\n",
     "k8s-evicted-ephemeral-storage"),
    ("Message: Pod The node had condition: [DiskPressure].\n", "k8s-evicted-ephemeral-storage"),
    ("Message: Pod The node had condition: [MemoryPressure].\n", "k8s-evicted-memory-pressure"),
    ("The replica master 0 ran out-of-memory and exited with a non-zero status of 9(SIGKILL)\n",
     "vertex-replica-oom"),
    ("I 03-04 10:02:11 controller.py:112] Cluster is preempted (status: INIT). Recovering...\n",
     "platform-preempted"),
    (TRACE + "google.auth.exceptions.DefaultCredentialsError: Your default credentials were not "
     "found. To set up Application Default Credentials, see https://cloud.google.com/docs/"
     "authentication/external/set-up-adc for more information.\n", "cloud-credentials-missing"),
    (TRACE + "google.auth.exceptions.DefaultCredentialsError: Could not automatically determine "
     "credentials. Please set GOOGLE_APPLICATION_CREDENTIALS or explicitly create credentials "
     "and re-run the application.\n", "cloud-credentials-missing"),
    (TRACE + "azure.core.exceptions.ClientAuthenticationError: DefaultAzureCredential failed to "
     "retrieve a token from the included credentials.\n", "cloud-credentials-missing"),
    (TRACE + "PermissionError: The provided token has expired.\n", "s3-token-expired"),
    (TRACE + "botocore.exceptions.ClientError: An error occurred (403) when calling the "
     "HeadObject operation: Forbidden\n", "object-store-access-denied"),
    (TRACE + "gcsfs.retry.HttpError: The object ckpt-bucket/run3/step_1000/.metadata exceeded "
     "the rate limit for object mutation operations (create, update, and delete). Please reduce "
     "your request rate. See https://cloud.google.com/storage/docs/gcs429., 429\n",
     "object-store-throttled"),
    (TRACE + "RuntimeError: Unable to set up cluster storage at storage_path=/home/ray/"
     "ray_results\n", "ray-storage-not-shared"),
    # the schedulers' and orchestrators' own lines alone: no Python traceback needed
    ("2024-03-11T04:12:55 srun: error: Node failure on gpu-node-07\n", "slurm-node-failure"),
    ("=>> PBS: job killed: walltime 86430 exceeded limit 86400\n", "pbs-walltime"),
    ("Message: The node was low on resource: memory. Threshold quantity: 100Mi, available: "
     "92284Ki.\n", "k8s-evicted-memory-pressure"),
    ("Runner interrupted due to worker preemption. Your Function will be restarted with the same "
     "input.\n", "platform-preempted"),
    ("  Warning  Failed  1m  kubelet  Failed to pull image \"ghcr.io/acme/train:v3\": failed to "
     "authorize: 403 Forbidden\n", "k8s-image-pull-failed"),
    # nccl-tests' and torch's words for CUDA error 802
    ("# Using devices\ntest: Test CUDA failure common.cu:941 'system not yet initialized'\n"
     " .. test pid 54340: Test failure common.cu:891\n", "fabric-manager-not-running"),
    (TRACE + "RuntimeError: CUDA error: system not yet initialized\n",
     "fabric-manager-not-running"),
    # accelerate's refusal names no GPU generation: Apple MPS in older torch releases
    (TRACE + "    raise ValueError(\"bf16 mixed precision requires PyTorch >= 1.10 and a supported "
     "device.\")\nValueError: bf16 mixed precision requires PyTorch >= 1.10 and a supported "
     "device\n", "bf16-unsupported"),
    # an extension's undefined symbol pasted over two lines, each behind a logger's time
    ("2024-05-01 12:00:01,123 ImportError:\n2024-05-01 12:00:01,123 /usr/lib/python3/dist-"
     "packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so\n2024-05-01 12:00:01,123 : "
     "undefined symbol: _ZN3c104cuda9SetDeviceEi\n", "extension-abi-mismatch"),
    # torch 2.3 and later name the signal the launcher got
    ("W0519 07:08:17.209025 139677327284032 torch/distributed/elastic/agent/server/api.py:741] "
     "Received Signals.SIGHUP death signal, shutting down workers\n", "launcher-terminated"),
    (TRACE + "    raise ValueError(\"ZeRO Offload can only work with DeepSpeed optimizers\")\n"
     "ValueError: ZeRO Offload can only work with DeepSpeed optimizers\n",
     "zero-offload-client-optimizer"),
    # a name missing from any installed package: one package is older or newer than another
    (TRACE + "    from jinja2 import Environment\n  File \"/usr/lib/python3/dist-packages/jinja2/"
     "filters.py\", line 13, in <module>\n    from markupsafe import soft_unicode\nImportError: "
     "cannot import name 'soft_unicode' from 'markupsafe' (/usr/lib/python3/dist-packages/"
     "markupsafe/__init__.py)\n", "library-version-skew"),
    # ... or an argument one library passes to another that no longer takes it: the call
    # is the traceback's last frame, in a library
    ("Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/torch/"
     "distributed/elastic/multiprocessing/errors/__init__.py\", line 346, in wrapper\n    "
     "return f(*args, **kwargs)\n  File \"/work/train_rlhf.py\", line 40, in main\n    "
     "engine = LLM(model=args.model, worker_use_ray=True)\n  File \"/venv/lib/python3.11/"
     "site-packages/vllm/entrypoints/llm.py\", line 210, in __init__\n    engine_args = "
     "EngineArgs(\n             ^^^^^^^^^^^\nTypeError: EngineArgs.__init__() got an "
     "unexpected keyword argument 'worker_use_ray'\n", "library-version-skew"),
    # ... but a project's own module, and setuptools' pkg_resources, keep their rules
    (TRACE + "ImportError: cannot import name 'build_model' from 'models' (/home/u/proj/models/"
     "__init__.py)\n", "module-not-found"),
    (TRACE + "ImportError: cannot import name 'packaging' from 'pkg_resources' (/venv/lib/"
     "python3.10/site-packages/pkg_resources/__init__.py)\n", "setuptools-pkg-resources"),
])
def test_more_failures_known_by_their_own_words(text, rule_id):
    assert diagnose(from_text(text, "case.log")).findings[0].id == rule_id


@pytest.mark.parametrize(("text", "rule_id"), [
    # torch's own bugs with built-in backends, not a plugin left unimported
    (TRACE + "AssertionError: Unknown c10d backend type NCCL\n", "c10d-backend-not-imported"),
    (TRACE + "AssertionError: Unknown c10d backend type CUDA:NCCL\n", "c10d-backend-not-imported"),
    (TRACE + "ValueError: Invalid backend: 'ncl'\n", "c10d-backend-not-imported"),
    (TRACE + "RuntimeError: No rendezvous handler for env://\n", "xla-rendezvous-handler"),
    # a dtype mismatch between CPU tensors is no accelerator tensor
    (TRACE + "RuntimeError: ProcessGroupGloo::allgather: invalid tensor type at index 0 (expected "
     "TensorOptions(dtype=float, device=cpu, layout=Strided), got TensorOptions(dtype=long long, "
     "device=cpu, layout=Strided))\n", "gloo-accelerator-tensor"),
    # a kernel's on-chip memory, which the batch size does not change
    (TRACE + "RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent "
     "error. Ran out of memory in memory space vmem. Used 17.5M of 16.0M vmem.\n", "xla-hbm-oom"),
    # non-contiguous devices in the container, not cores held by another process
    ("2023-Jan-01 10:00:00.0001 111:111 ERROR   NRT:nrt_allocate_neuron_cores               "
     "Neuron cores are not contiguous\n", "neuron-cores-busy"),
    # an operator without an MPS kernel is no collective
    (TRACE + "NotImplementedError: The operator 'aten::upsample_bicubic2d.out' is not currently "
     "implemented for the MPS device.\n", "mps-collective-unsupported"),
    # Lightning's CUDA accelerator stays with the no-GPU rule
    (TRACE + "MisconfigurationException: `CUDAAccelerator` can not run on your system since the "
     "accelerator is not available.\n", "lightning-accelerator-unavailable"),
])
def test_failures_near_an_accelerator_rule_are_not_it(text, rule_id):
    assert rule_id not in [f.id for f in diagnose(from_text(text, "case.log")).findings]


# A scheduler's or orchestrator's reason for stopping the job comes before the exits, signals
# and lost peers it causes on the ranks.
@pytest.mark.parametrize(("text", "rule_id"), [
    # the node that died: the surviving node's NCCL timeout and killed task are its echoes
    ("[rank8]:[E311 04:12:40 ProcessGroupNCCL.cpp:616] [Rank 8] Watchdog caught collective "
     "operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout("
     "ms)=600000) ran for 600055 milliseconds before timing out.\n"
     "srun: error: Node failure on gpu-node-07\n"
     "slurmstepd: error: *** STEP 88123.0 ON gpu-node-01 CANCELLED AT 2024-03-11T04:12:55 DUE "
     "TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n"
     "srun: error: gpu-node-01: task 0: Killed\n", "slurm-node-failure"),
    # an eviction, then torchrun stopped by the kubelet's SIGTERM
    ("Message: The node was low on resource: ephemeral-storage. Threshold quantity: "
     "10120387530, available: 9702960Ki.\nW1123 22:36:40.704000 140 torch/distributed/elastic/"
     "agent/server/api.py:753] Received 15 death signal, shutting down workers\n"
     "torch.distributed.elastic.multiprocessing.api.SignalException: Process 140 got signal: 15"
     "\n", "k8s-evicted-ephemeral-storage"),
    ("Message: The node was low on resource: memory. Threshold quantity: 100Mi, available: "
     "92284Ki.\ntorch.distributed.elastic.multiprocessing.api.SignalException: Process 140 got "
     "signal: 15\n", "k8s-evicted-memory-pressure"),
    ("  Warning  DeadlineExceeded  3m  job-controller  Job was active longer than specified "
     "deadline\ntorch.distributed.elastic.multiprocessing.api.SignalException: Process 140 got "
     "signal: 15\n", "k8s-job-deadline"),
    ("=>> PBS: job killed: mem 263472128kb exceeded limit 251658240kb\nKilled\n",
     "pbs-memory-limit"),
    # the pod that never scheduled: the started workers time out in the rendezvous
    ("  Warning  FailedScheduling  2m  default-scheduler  0/8 nodes are available: 8 "
     "Insufficient nvidia.com/gpu.\n" + TRACE + "torch.distributed.elastic.rendezvous.api."
     "RendezvousTimeoutError\n", "k8s-gpu-unschedulable"),
    # Kubernetes <= 1.9's scheduler event, where the job's log stops (pods pending for hours)
    ("  5h  27s  1086  default-scheduler  Warning  FailedScheduling  No nodes are available "
     "that match all of the following predicates:: Insufficient alpha.kubernetes.io/nvidia-gpu "
     "(3).\n", "k8s-gpu-unschedulable"),
    # Ray Train wraps the worker's error; the RuntimeError names the cause
    ("ray.exceptions.RayTaskError(RuntimeError): ray::_Inner.train() (pid=5512, ip=10.0.0.3)\n"
     "RuntimeError: Unable to set up cluster storage with the following settings: "
     "StorageContext<storage_filesystem='local', storage_fs_path='/home/ray/ray_results'>\n"
     "ray.train.base_trainer.TrainingFailedError: The Ray Train run failed.\n",
     "ray-storage-not-shared"),
    # the backoff limit only says the pods failed: their own error is the cause
    ("  Warning  BackoffLimitExceeded  1m  job-controller  Job has reached the specified "
     "backoff limit\n" + TRACE + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
     "2.00 GiB\n", "cuda-oom"),
    ("  Warning  BackoffLimitExceeded  1m  job-controller  Job has reached the specified "
     "backoff limit\n" + TRACE + "KeyError: 'input_ids'\n", "python-exception"),
    # a preempted run that restarted and then failed for its own reason
    ("Runner interrupted due to worker preemption. Your Function will be restarted with the "
     "same input.\nepoch 0 step 1 loss 2.3026\n" + TRACE + "torch.OutOfMemoryError: CUDA out "
     "of memory. Tried to allocate 2.00 GiB\n", "cuda-oom"),
])
def test_the_schedulers_reason_comes_before_the_ranks_ends(text, rule_id):
    assert diagnose(from_text(text, "case.log")).findings[0].id == rule_id


@pytest.mark.parametrize(("text", "rule_id"), [
    # another reason on the same scheduler line is another cause
    ("slurmstepd: error: *** STEP 88123.0 ON gpu-node-01 CANCELLED AT 2024-05-02T11:00:01 DUE "
     "TO TIME LIMIT ***\n", "slurm-node-failure"),
    # a replica that exited for its own reason is no out-of-memory kill
    ("The replica workerpool1-0 exited with a non-zero status of 1. Termination reason: "
     "Error.\n", "vertex-replica-oom"),
    # a missing object is often an existence check; a plain existing path is no stale cache
    (TRACE + "botocore.exceptions.ClientError: An error occurred (404) when calling the "
     "HeadObject operation: Not Found\n", "object-store-access-denied"),
    (TRACE + "FileExistsError: [Errno 17] File exists: '/data/out/run1'\n",
     "streaming-reused-local-dir"),
    # STS refusing the role (IRSA's trust policy), where no bucket permission helps
    (TRACE + "botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the "
     "AssumeRoleWithWebIdentity operation: Not authorized to perform sts:AssumeRoleWithWebIdentity"
     "\n", "object-store-access-denied"),
    # a web API's own expired JWT, in the same words as S3's
    (TRACE + "requests.exceptions.HTTPError: 401 Client Error: {\"error\": \"Expired token\", "
     "\"message\": \"The provided token has expired\"}\n", "s3-token-expired"),
    # another program's own Click usage and unknown subcommand shadow no launcher
    ("Usage: ray [OPTIONS] COMMAND [ARGS]...\nTry 'ray --help' for help.\n\n"
     "Error: No such command 'tune'.\n", "launcher-command-shadowed"),
    # a divisibility assert from a frame that is no tensor-parallel divide() or MoE group
    (TRACE + "  File \"/opt/app/data.py\", line 12, in divide_batch\n"
     "    assert total % parts == 0, f'{total} is not divisible by {parts}'\n"
     "AssertionError: 10 is not divisible by 4\n", "tp-size-indivisible"),
    (TRACE + "  File \"/opt/app/data.py\", line 12, in divide_batch\n"
     "    assert total % parts == 0, f'{total} is not divisible by {parts}'\n"
     "AssertionError: 10 is not divisible by 4\n", "expert-parallel-size-indivisible"),
])
def test_near_wordings_are_not_the_new_causes(text, rule_id):
    assert rule_id not in [f.id for f in diagnose(from_text(text, "case.log")).findings]


def test_a_local_gloo_peer_that_refused_is_no_hostname_problem():
    # 127.0.0.1 is the address single-node jobs use on purpose: a refused connection there
    # is a peer that went away, not a hostname that resolves to the loopback
    text = (TRACE + "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] "
            "connect [127.0.0.1]:25715: Connection refused\n")
    assert diagnose(from_text(text, "case.log")).findings[0].id != "hostname-loopback"


@pytest.mark.parametrize(("text", "rule_id"), [
    # the libraries' own words for a job that sees no GPU (on a Mac, "(not 'mps')", the GPU
    # is there: mps-fp16-unsupported)
    (TRACE + "ValueError: fp16 mixed precision requires a GPU (not 'cpu').\n",
     "torch-without-cuda"),
    (TRACE + "ValueError: fp16 mixed precision requires a GPU (not 'mps').\n",
     "mps-fp16-unsupported"),
    (TRACE + "lightning.fabric.utilities.exceptions.MisconfigurationException: No supported gpu "
     "backend found!\n", "torch-without-cuda"),
    (TRACE + "MisconfigurationException: `CUDAAccelerator` can not run on your system since the "
     "accelerator is not available. The following accelerator(s) is available and can be passed "
     "into `accelerator` argument of `Trainer`: ['cpu'].\n", "torch-without-cuda"),
    (TRACE + "ValueError: FP16 Mixed precision training with AMP or APEX (`--fp16`) and FP16 "
     "half precision evaluation (`--fp16_full_eval`) can only be used on CUDA devices.\n",
     "torch-without-cuda"),
    (TRACE + "MisconfigurationException: You requested gpu: [0, 1, 2, 3]\n But your machine only "
     "has: [0]\n", "no-cuda-device"),
    (TRACE + "RuntimeError: Lightning can't create new processes if CUDA is already "
     "initialized. Did you manually call `torch.cuda.*` functions, have moved the model to the "
     "device, or allocated memory on the GPU any other way?\n", "cuda-fork-after-init"),
    (TRACE + "RuntimeError: It looks like your LightningModule has parameters that were not "
     "used in producing the loss returned by training_step. If this is intentional, you must "
     "enable the detection of unused parameters in DDP\n", "unused-parameters"),
    ("Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7f2b>\nTraceback (most "
     "recent call last):\n  File \"/venv/lib/python3.10/site-packages/deepspeed/ops/adam/"
     "cpu_adam.py\", line 102, in __del__\nAttributeError: 'DeepSpeedCPUAdam' object has no "
     "attribute 'ds_opt_adam'\n", "extension-build-failed"),
    (TRACE + "ImportError: /root/.cache/torch_extensions/py310_cu117/fused_adam/fused_adam.so: "
     "cannot open shared object file: No such file or directory\n", "extension-build-failed"),
    ("node1:12:12 [0] NCCL WARN Invalid config blocking attribute value -2147483648\n" + TRACE
     + "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.hpp:219, invalid "
     "argument, NCCL version 2.14.3\n", "nccl-library-mismatch"),
    (TRACE + "AssertionError: world size (8) is not divisible by tensor model parallel size "
     "(3)\n", "tp-size-indivisible"),
    (TRACE + "ValueError: The number of GPUs per node is not divisible by the number of tensor "
     "parallelism.\n", "tp-size-indivisible"),
    # vLLM's V1 engine words the KV cache shortage otherwise
    (TRACE + "ValueError: To serve at least one request with the models's max seq len (32768), "
     "(2.00 GiB KV cache is needed, which is larger than the available KV cache memory (0.78 "
     "GiB). Try increasing `gpu_memory_utilization` or decreasing `max_model_len`\n",
     "vllm-kv-cache-memory"),
    (TRACE + "RuntimeError: CUDA error: the provided PTX was compiled with an unsupported "
     "toolchain.\n", "cuda-driver-too-old"),
    ("node1:7:7 [0] include/alloc.h:105 NCCL WARN Failed to CUDA calloc 1048576 bytes\n" + TRACE
     + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled "
     "cuda error, NCCL version 2.18.1\n", "cuda-oom"),
    (TRACE + "RuntimeError: CUDA error: uncorrectable NVLink error detected during the "
     "execution\n", "gpu-hardware-error"),
    ("node1:7:9 [0] init.cc:1203 NCCL WARN Cuda failure 'system not yet initialized'\n" + TRACE
     + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled "
     "cuda error, NCCL version 2.19.3\n", "fabric-manager-not-running"),
    (TRACE + "RuntimeError: Default process group is not initialized\n",
     "process-group-not-initialized"),
    (TRACE + "RuntimeError: Input and parameter tensors are not at the same device, found "
     "input tensor at cuda:1 and parameter tensor at cuda:0\n", "device-mismatch"),
])
def test_the_frameworks_own_words_for_known_causes(text, rule_id):
    assert diagnose(from_text(text, "case.log")).findings[0].id == rule_id


def test_a_bare_exception_ends_a_traceback():
    # `raise Exception(...)`: no subclass name before it, and still the failure
    text = TRACE + "    raise Exception('widget 7 is frobnicated')\nException: widget 7 is frobnicated\n"
    result = diagnose(from_text(text, "case.log"))
    assert result.status == "diagnosed" and result.findings[0].id == "python-exception"
    assert "Exception: widget 7 is frobnicated" in result.findings[0].evidence[0].text
    alone = diagnose(from_text("Exception: widget 7 is frobnicated\n", "case.log"))
    assert alone.status == "diagnosed"


def test_a_device_mismatch_named_by_type_is_still_a_device_mismatch():
    # the same message with the same dtype on two devices is a device problem, not a dtype one
    text = (TRACE + "RuntimeError: Input type (torch.FloatTensor) and weight type "
            "(torch.cuda.FloatTensor) should be the same\n")
    assert diagnose(from_text(text, "case.log")).findings[0].id == "device-mismatch"
    same_device = text.replace("(torch.FloatTensor)", "(torch.HalfTensor)").replace(
        "torch.cuda.FloatTensor", "torch.FloatTensor")
    assert diagnose(from_text(same_device, "case.log")).findings[0].id == "dtype-mismatch"


# Lines healthy runs print, which the rules written from the libraries' error messages must
# leave alone (each from the library's own source: torch's socket.cpp, huggingface_hub's
# retry warning, diffusers' offline fallback, torch's and NumPy's non-fatal NumPy-2 notices,
# container states)
HEALTHY_NEIGHBOURS = [
    "[I socket.cpp:624] [c10d - debug] The client socket will attempt to connect to an IPv4 "
    "address of (127.0.1.1, 29500).\n",
    "[W socket.cpp:697] [c10d] The server socket on [127.0.1.1]:29500 is not yet listening "
    "(errno: 111 - Connection refused), will retry.\n",
    "[I socket.cpp:787] [c10d] The client socket has connected to [127.0.1.1]:29500 on "
    "[127.0.1.1]:41234.\n",
    "'(MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries "
    "exceeded with url: /bert/resolve/main/config.json\"), '(Request ID: 1f2e)')' thrown while "
    "requesting HEAD https://huggingface.co/bert/resolve/main/config.json\n",
    "Couldn't connect to the Hub: 401 Client Error: Unauthorized for url: "
    "https://huggingface.co/api/models/stabilityai/sd-2.\nWill try to load from local cache.\n",
    "UserWarning: Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at "
    "../torch/csrc/utils/tensor_numpy.cpp:84.)\n",
    "UserWarning: Failed to initialize NumPy: numpy.core.multiarray failed to import\n",
    "OOMKilled=false\n",
    "State.OOMKilled=false\n",
    "{'State': {'Status': 'running', 'OOMKilled': False}}\n",
    '"OOMKilled": "false"\n',
    "UserWarning: could not write the cache, using a temporary one: [Errno 30] Read-only file "
    "system: '/models/.cache'\n",
    "UserWarning: could not create cache dir: OSError: [Errno 30] Read-only file system: "
    "'/root/.triton'; using /tmp\n",
    "WARNING: PermissionError: [Errno 13] Permission denied: '/.cache/huggingface' - falling "
    "back to /tmp/hf\n",
    "Warning: Could not initialize W&B: api_key not configured (no-tty). call "
    "wandb.login(key=[your_api_key])\n",
    "wandb: WARNING api_key not configured (no-tty). Falling back to offline mode.\n",
    "WARNING:root:Could not import torch.distributed.tensor: No module named "
    "'torch.distributed.tensor'\n",
    "peft: fully_shard unavailable (cannot import name 'fully_shard' from "
    "'torch.distributed.fsdp'), falling back to FSDP1\n",
    # the TCPStore client tries IPv6 first; on a host without it this warning precedes a
    # working IPv4 connection
    "[W socket.cpp:697] [c10d] The IPv6 network addresses of (XPITDN0502269.local, 56412) "
    "cannot be retrieved (gai error: 8 - nodename nor servname provided, or not known).\n"
    "epoch 0 step 1 loss 2.3026\n",
    "[W1014 16:41:26.522544000 socket.cpp:755] [c10d] The IPv6 network addresses of "
    "(localhost, 59319) cannot be retrieved (gai error: -3 - Temporary failure in name "
    "resolution).\nInit COMPLETE: 2 ranks\n",
    # torchvision's optional image extension: a warning, training goes on
    "UserWarning: Failed to load image Python extension: '/venv/lib/python3.10/site-packages/"
    "torchvision/image.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev'If you don't plan "
    "on using image functionality from `torchvision.io`, you can ignore this warning.\n",
    # a DataLoader iterator collected in another process: Python ignores the exception
    "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f62eb6ed630>"
    "\nTraceback (most recent call last):\n  File \"/venv/lib/python3.10/site-packages/torch/"
    "utils/data/dataloader.py\", line 1466, in __del__\n    self._shutdown_workers()\n  File "
    "\"/usr/lib/python3.10/multiprocessing/process.py\", line 160, in is_alive\n    assert "
    "self._parent_pid == os.getpid(), 'can only test a child process'\nAssertionError: can "
    "only test a child process\n",
    "NCCL INFO [Service thread] Connection closed by localRank 0\n",
    "WARNING: Using tensor model parallelism or context parallelism with Torch-FSDP2 together. "
    "sequence parallelism requires setting the environment variable CUDA_DEVICE_MAX_CONNECTIONS "
    "to 1 while Torch-FSDP2 requires not setting CUDA_DEVICE_MAX_CONNECTIONS=1 for better "
    "parallelization.\n iteration       10/   1000 | lm loss: 9.812E+00 |\n",
    "WARNING 05-02 10:01:02 config.py:1650] User-specified max_model_len (65536) is greater than "
    "the derived max_model_len (max_position_embeddings=32768). Make sure the value is correct "
    "and within the model context size.\nINFO: Started server process\n",
    "UserWarning: Failed to initialize NumPy: module compiled against API version 0x10 but this "
    "version of numpy is 0xe (Triggered internally at ../torch/csrc/utils/tensor_numpy.cpp:84.)"
    "\nepoch 0 step 1 loss 2.3026\n",
    "[2024-03-11 10:02:14,877] [WARNING] [engine.py:2916:_get_all_zero_checkpoint_names] The "
    "following zero checkpoints paths are missing: ['/data/ckpt/200000/zero_pp_rank_0_mp_rank_00"
    "_optim_states.pt']\nsuccessfully loaded /data/ckpt/200000/mp_rank_00_model_states.pt\n",
    "/venv/lib/python3.10/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load "
    "image Python extension: libc10_cuda.so: cannot open shared object file: No such file or "
    "directory\n  warn(f\"Failed to load image Python extension: {e}\")\n[rank0]: epoch 0 step "
    "100 loss 2.1024\n",
    "2024-02-25 18:52:47.991396: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
    "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot "
    "open shared object file: No such file or directory\n***** Running training *****\n",
    "UserWarning: The installed version of bitsandbytes was compiled without GPU support.\n"
    "'NoneType' object has no attribute 'cadam32bit_grad_fp32'\nLoading checkpoint shards: "
    "100%\n",
    "torch.compile() failed: Dynamo is not supported on Python 3.12+; running eagerly\nstep 0 "
    "loss 10.9821\n",
    # working torch_xla, oneCCL, IPEX-through-transformers, MPS and Windows gloo runs
    "I0000 00:00:1649423660.053391 1924758 f236.cc:165] libtpu.so already in use by another "
    "process probably owned by another user. Run \"$ sudo lsof -w /dev/accel0\" to figure out "
    "which process is using the TPU. Not attempting to load libtpu.so in this process.\n",
    "2024:01:11-10:22:07:(2012) |CCL_WARN| could not get local_idx/count from environment "
    "variables, trying to get them from ATL\n",
    "2024:01:11-10:22:07:(2012) |CCL_WARN| did not find MPI-launcher specific variables, switch "
    "to ATL/OFI, to force enable ATL/MPI set CCL_ATL_TRANSPORT=mpi\n",
    "UserWarning: Device capability of ccl unknown, assuming `cpu` and `cuda`. Please specify it "
    "via the `devices` argument of `register_backend`.\n",
    "Intel Extension for PyTorch 2.1 needs to work with PyTorch 2.1.*, but PyTorch 2.2.0 is "
    "found. Please switch to the matching version and run again.\n",
    "UserWarning: The operator 'aten::isin.Tensor_Tensor_out' is not currently supported on the "
    "MPS backend and will fall back to run on the CPU. This may have performance implications.\n",
    "Using backend config: {'cpu': 'gloo', 'mps': 'gloo'}\n",
    "[W socket.cpp:697] [c10d] The client socket has failed to connect to [DESKTOP-7BNNAUJ]:29500 "
    "(system error: 10049 - The requested address is not valid in its context.).\n",
    ":3:hip_module.cpp :669 : hipLaunchKernel: Returned hipSuccess :\n",
    # torch.compile, DCP, pipelining and fine-tuning lines of runs that go on
    "W0612 10:20:42.000000 4121 torch/_inductor/codecache.py:1204] Cache Metrics: "
    "FxGraphCache hit 3 miss 0\n",
    "I have no name!@ddb9c3bf9589:/app$ torchrun --nproc-per-node 2 train.py\n",
    "[rank0]:I0612 10:20:42.000000 4121 torch/_dynamo/backends/distributed.py:412] [0/0] "
    "DDPOptimizer used bucket cap 26214400 and created 12 buckets.\n",
    "fsdp_config: {'sharding_strategy': 'FULL_SHARD', 'use_orig_params': True,}\n",
    "W0612 10:20:42.000000 4121 torch/_inductor/codecache.py:1204] [0/0] Bypassing FX Graph "
    "Cache because 'Cannot pickle'\n",
    "[rank0]:W0612 10:20:42.000000 4121 torch/_dynamo/convert_frame.py:844] [1/8] "
    "torch._dynamo hit config.cache_size_limit (8)\n[rank0]: step 200 loss 2.31\n",
    "FutureWarning: `save_state_dict` is deprecated and will be removed in future versions."
    "Please use `save` instead.\n",
    "#pragma omp parallel num_threads(8)\n",
    "W0612 10:20:42.000000 4121 torch/distributed/pipelining/microbatch.py:301] Tensor size "
    "on chunking dimension is 16, downsizing the number of chunks from 32 to 16.\n",
    "/venv/lib/python3.10/site-packages/torch/utils/checkpoint.py:31: UserWarning: None of the "
    "inputs have requires_grad=True. Gradients will be None\n{'loss': 1.8123, 'epoch': 0.1}\n",
    "Loading cached processed dataset at /root/.cache/huggingface/datasets/json/default/"
    "cache-9a1b.arrow\n",
    "Launching training on 2 GPUs.\n",
    "Launching training on one GPU.\n",
    "UserWarning: Future Hydra versions will no longer change working directory at job "
    "runtime by default.\n",
    # schedulers, orchestrators, managed platforms and storage clients on healthy runs
    "srun: job 29986033 has been allocated resources\nepoch 0 step 1 loss 2.3026\n",
    "   Walltime Used:      23:59:10\n   Exit Status:        0\n",
    "Successfully completed.\n",
    "PossibleUserWarning: The `srun` command is available on your system but is not used. HINT: "
    "If your intention is to run Lightning on SLURM, prepend your python command with `srun` "
    "like so: srun python train.py\n",
    "    Limits:\n      ephemeral-storage:  50Gi\n      memory:             64Gi\n",
    "  activeDeadlineSeconds: 86400\n  backoffLimit: 4\n",
    "  Normal   Pulling    2m   kubelet  Pulling image \"nvcr.io/nvidia/pytorch:24.03-py3\"\n"
    "  Normal   Pulled     1m   kubelet  Successfully pulled image \"nvcr.io/nvidia/pytorch:"
    "24.03-py3\" in 1.06s\n",
    # a pull retried, then done: the pod started
    "  Warning  Failed     3m   kubelet  Failed to pull image \"nvcr.io/nvidia/pytorch:24.03-"
    "py3\": toomanyrequests: retry later\n  Normal   Pulled     1m   kubelet  Successfully "
    "pulled image \"nvcr.io/nvidia/pytorch:24.03-py3\" in 40.2s\n  Normal   Started    1m   "
    "kubelet  Started container pytorch\n",
    # an autoscaler added a node: the pod scheduled after waiting
    "  Warning  FailedScheduling  4m  default-scheduler  0/2 nodes are available: 2 Insufficient "
    "nvidia.com/gpu.\n  Normal   TriggeredScaleUp  4m  cluster-autoscaler  pod triggered "
    "scale-up\n  Normal   Scheduled  1m  default-scheduler  Successfully assigned ns/job-worker-0 "
    "to node-3\n",
    "  Normal   Scheduled  2m  default-scheduler  Successfully assigned ns/job-worker-0 to node-1\n",
    "Job completed successfully.\n",
    "Runner interrupted due to worker preemption. Your Function will be restarted with the same "
    "input.\nepoch 0 step 1 loss 2.3026\nTraining finished\n",
    "I 03-04 10:02:11 controller.py:112] Cluster is preempted (status: INIT). Recovering...\n"
    "Job status: JobStatus.RUNNING\n",
    "botocore.credentials INFO Found credentials in environment variables.\n",
    "INFO azure.identity._credentials.environment: No environment configuration found.\n",
    "botocore.retries.standard DEBUG Retry needed, retrying request after delay of: 0.5 "
    "(SlowDown)\nepoch 0 step 10 loss 2.1\n",
    "INFO:gcsfs:Retrying _call after 429 response (attempt 1)\n",
    # Slurm 15-17's note on a step whose cgroup touched its limit, printed on runs that finish
    "real 9355.80\nslurmstepd: error: Exceeded step memory limit at some point.\nslurmstepd: "
    "error: Exceeded job memory limit at some point.\n",
    "slurmstepd: Exceeded step memory limit at some point. Step may have been partially swapped "
    "out to disk.\n",
    "Checkpoint successfully created at: Checkpoint(filesystem=local, path=/mnt/cluster_storage/"
    "exp/checkpoint_000001)\n",
    # review: a comment that names HCCL's timeout, on a run that goes on
    "# the default connect timeout (~2min) kills the link first (EI0006 \"Getting socket times "
    "out\")\nHCCL_CONNECT_TIMEOUT=7200\nstep 1 loss 2.3\n",
    # slurmstepd's notes on a run that goes on (a process gone before it read its status, a
    # TMPDIR it could not create)
    "slurmstepd: error: _is_a_lwp: open() /proc/12345/status failed: No such file or "
    "directory\nslurmstepd: error: Unable to create TMPDIR [/tmp/user/1234]: Permission "
    "denied\nslurmstepd: error: Setting TMPDIR to /tmp\nstep 200 loss 1.9\ndone\n",
]
# a command a library ran and reports failed (a failure shown, not the job's exit)
LIBRARY_COMMAND = ("wandb: WARNING Command '['git', 'rev-parse', 'HEAD']' returned non-zero exit "
                   "status 128.\n")


def test_the_ipv6_lookup_warning_names_the_host_only_where_the_run_stopped():
    warning = ("[W1123 23:05:44 socket.cpp:764] [c10d] The IPv6 network addresses of "
               "(trainer-node-0.invalid, 29555) cannot be retrieved (gai error: -2 - Name or "
               "service not known).\n")
    failed = ("[E1123 23:05:53 socket.cpp:1028] [c10d] The client socket has timed out after "
              "10000ms while trying to connect to (trainer-node-0.invalid, 29555).\n")
    went_on = "[rank0]: epoch 0 step 1 loss 2.3026\n"
    assert diagnose(from_text(warning * 3 + went_on, "ok.log")).status == "no_failure"
    # the warning alone, once: a line someone quoted, not a run seen stopping there
    assert diagnose(from_text("\n" + warning, "quoted.log")).status == "no_failure"
    for stopped in (warning * 3 + failed, warning * 3, "[rank0]: init\n" + warning):
        result = diagnose(from_text(stopped, "failed.log"))
        assert [f.id for f in result.findings][:1] == ["host-not-resolved"], stopped
    # a Kubernetes pod warns while its master's DNS record appears, trains, then fails apart
    unrelated = warning * 3 + went_on + TRACE + "KeyError: 'input_ids'\n"
    result = diagnose(from_text(unrelated, "failed.log"))
    assert [f.id for f in result.findings] == ["python-exception"], result.findings
    # the lookup's own exception is no warning
    raised = TRACE + "socket.gaierror: [Errno -2] Name or service not known\n"
    assert diagnose(from_text(raised, "x.log")).findings[0].id == "host-not-resolved"


# a warning before a run that went on, then failed for its own reason; its peers' rendezvous
# then lost the failed rank's store: the rendezvous failure is no companion of that warning
@pytest.mark.parametrize(("warning", "rule_id"), [
    ("  Warning  Failed  12m  kubelet  Failed to pull image \"ghcr.io/acme/train:v3\": rpc error: "
     "code = Unknown desc = 429 Too Many Requests\n  Normal   Pulled  11m  kubelet  Successfully "
     "pulled image \"ghcr.io/acme/train:v3\" in 40.1s\n", "k8s-image-pull-failed"),
    ("  Warning  FailedScheduling  20m  default-scheduler  0/8 nodes are available: 8 Insufficient "
     "nvidia.com/gpu.\n  Normal   TriggeredScaleUp  19m  cluster-autoscaler  pod triggered "
     "scale-up\n", "k8s-gpu-unschedulable"),
    ("[W1123 23:05:44 socket.cpp:764] [c10d] The IPv6 network addresses of (job-master-0, 29555) "
     "cannot be retrieved (gai error: -2 - Name or service not known).\n", "host-not-resolved"),
])
def test_a_warning_is_no_cause_of_a_rendezvous_lost_after_another_failure(warning, rule_id):
    failed = ("[rank0]: epoch 0 step 100 loss 2.31\n[rank0]: "
              + TRACE.replace("\n", "\n[rank0]: ", 1)
              + "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
              + TRACE + "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The "
              "connection to the C10d store has failed. See inner exception for details.\n")
    ids = [f.id for f in diagnose(from_text(warning + failed, "x.log")).findings]
    assert ids[0] == "cuda-oom" and rule_id not in ids, ids
    # the same warning right before the rendezvous failure is its cause
    waited = warning + TRACE + ("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"
                                "\n")
    assert diagnose(from_text(waited, "x.log")).findings[0].id == rule_id


WARNED_TRACEBACKS = [
    # torch >= 2.1: Dynamo runs a frame eagerly after logging why at WARNING, every line glogged
    "".join(f"W0612 10:20:42.000000 4121 torch/_dynamo/convert_frame.py:1125] {line}\n" for line in (
        "WON'T CONVERT forward /workspace/model.py line 88", "due to:",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.10/site-packages/torch/_dynamo/convert_frame.py", line 1064, '
        "in __call__", "    result = self._inner_convert(",
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
        "CppCompileError: C++ compile error", "")),
    # torch 2.0: Python logging's format, with the rank's tag before it
    "".join(f"[rank1]:[2023-07-28 17:15:25,731] torch._dynamo.convert_frame: [WARNING] {line}\n"
            for line in ("Traceback (most recent call last):",
                         '  File "/x/torch/_dynamo/convert_frame.py", line 324, in _compile',
                         "    out_code = transform_code_object(code, transform)",
                         "torch._dynamo.exc.Unsupported: call_function in skip_files")),
]


@pytest.mark.parametrize("warned", WARNED_TRACEBACKS)
def test_a_traceback_logged_as_a_warning_is_not_a_failure(warned):
    went_on = "[rank1]: step 10 | loss 4.123\nTraining completed.\n"
    assert diagnose(from_text(warned + went_on, "ok.log")).status == "no_failure"
    failed = warned + went_on + TRACE + "torch.OutOfMemoryError: CUDA out of memory.\n"
    assert [f.id for f in diagnose(from_text(failed, "x.log")).findings] == ["cuda-oom"]
    # the same traceback logged as an error (torch's agent re-printing a worker's) is read
    errored = warned.replace("] W0612", "] E0612").replace(":W0612", ":E0612")
    errored = errored.replace("W0612 10", "E0612 10").replace("[WARNING]", "[ERROR]")
    assert diagnose(from_text(errored, "x.log")).status != "no_failure"


def _dynamo_fallback(*error: str) -> str:
    """Dynamo's suppress_errors fallback: the compile error logged at WARNING, the frame run
    eagerly."""
    prefix = "[rank0]:W0612 10:20:42.000000 4121 torch/_dynamo/convert_frame.py:1125] "
    return "".join(f"{prefix}{line}\n" for line in (
        "WON'T CONVERT forward /workspace/model.py line 88", "due to:",
        "Traceback (most recent call last):",
        '  File "/x/torch/_dynamo/convert_frame.py", line 1064, in __call__',
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:", *error))


COMPILE_ERRORS = [
    ("NotImplementedError: DDPOptimizer backend: Found a higher order op in the graph. This is "
     "not supported. Please turn off DDP optimizer using torch._dynamo.config.optimize_ddp=False.",
     "compile-ddp-higher-order-op"),
    ("AssertionError: Dynamo only supports FSDP with use_orig_params=True",
     "compile-fsdp-orig-params"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/tmp/torchinductor_u/triton/0/5eba/"
     "triton_.cubin.tmp.pid_93828_100098'", "inductor-cache-race"),
    ("KeyError: 'getpwuid(): uid not found: 1042'", "inductor-cache-no-username"),
]


@pytest.mark.parametrize(("error", "rule_id"), COMPILE_ERRORS)
def test_a_compile_error_dynamo_fell_back_from_is_no_failure(error, rule_id):
    went_on = "[rank0]: step 10 | loss 4.123\nTraining completed.\n"
    assert diagnose(from_text(_dynamo_fallback(error) + went_on, "ok.log")).status == "no_failure"
    raised = "[rank0]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
    assert diagnose(from_text(raised + f"[rank0]: {error}\n", "x.log")).findings[0].id == rule_id


@pytest.mark.parametrize(("error", "rule_id"), COMPILE_ERRORS)
def test_a_compile_error_dynamo_fell_back_from_is_not_a_later_failures_cause(error, rule_id):
    killed = (_dynamo_fallback(error) + "[rank0]: step 10 | loss 4.123\n"
              "srun: error: gpu-3: task 0: Out Of Memory\n")
    found = [f.id for f in diagnose(from_text(killed, "x.log")).findings]
    assert found[:1] == ["oom-killer"] and rule_id not in found, found
    # where the log stops in the warning, the run stopped there: its lines count
    assert rule_id in [f.id for f in diagnose(from_text(_dynamo_fallback(error), "x.log")).findings]


def test_chained_tracebacks_logged_as_one_warning_are_no_failure():
    warned = ("WARNING:root:Traceback (most recent call last):\n  File \"up.py\", line 3, in put\n"
              "KeyError: 'etag'\n\nDuring handling of the above exception, another exception "
              "occurred:\n\nTraceback (most recent call last):\n  File \"up.py\", line 5, in put\n"
              "ConnectionError: upload failed, retrying (1/3)\n")
    went_on = "step 20 loss 1.2\nTraining completed.\n"
    assert diagnose(from_text(warned + went_on, "ok.log")).status == "no_failure"
    failed = warned + TRACE + "ValueError: bad batch\n"
    assert [f.id for f in diagnose(from_text(failed, "x.log")).findings] == ["python-exception"]


def test_a_warning_with_thousands_of_chained_tracebacks_is_read_in_bounds():
    link = ("\nDuring handling of the above exception, another exception occurred:\n\n"
            "Traceback (most recent call last):\n  File \"up.py\", line 5, in put\n"
            "ConnectionError: upload failed\n")
    warned = ("WARNING:root:Traceback (most recent call last):\n  File \"up.py\", line 3, in "
              "put\nKeyError: 'etag'\n" + link * 5000)
    # a recursion per chained traceback would end in RecursionError; the span stops at 20
    result = diagnose(from_text(warned + "step 20 loss 1.2\n", "x.log"))
    assert result.findings and result.findings[0].id == "python-exception"
    assert all(e.line > 100 for f in result.findings for e in f.evidence), result.findings


def test_an_evaluate_cache_collision_retried_is_no_failure():
    retried = ("[eval] simple_evaluate failed (attempt 1/3): Error in finalize: another evaluation "
               "module instance is already using the local cache file. Please specify an "
               "experiment_id to avoid collision between distributed evaluation module "
               "instances.\n[eval] retrying with experiment_id=run-3f2a\n{'accuracy': 0.81}\n")
    assert diagnose(from_text(retried, "ok.log")).status == "no_failure"


@pytest.mark.parametrize(("text", "rule_id", "advice"), [
    # a native Linux container without the unversioned link, not only WSL2
    ("Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared "
     "object file: No such file or directory\nAborted (core dumped)\n", "cudnn-libcuda-missing",
     "ldconfig -p | grep libcuda"),
    # Windows: a cache path over 260 characters, no race
    (TRACE + "torch._inductor.exc.InductorError: FileNotFoundError: [Errno 2] No such file or "
     "directory: 'C:\\\\Users\\\\user\\\\AppData\\\\Local\\\\Temp\\\\torchinductor_user\\\\triton\\\\0"
     "\\\\d471\\\\triton_red_fused_mse_loss_43.ttir.tmp.pid_558924_123c1e07'\n",
     "inductor-cache-race", "LongPathsEnabled"),
    # a saved config loaded by another script, no spawn
    (TRACE + "    cfg = OmegaConf.load('outputs/.hydra/config.yaml')\nomegaconf.errors."
     "InterpolationResolutionError: Unsupported interpolation type hydra\n",
     "hydra-resolver-in-spawn", "OmegaConf.save"),
    # python_reducer needs compiled autograd on
    ("[rank0]: NotImplementedError: DDPOptimizer backend: Found a higher order op in the graph. "
     "This is not supported.\n", "compile-ddp-higher-order-op", "compiled_autograd = True"),
])
def test_the_advice_fits_the_case(text, rule_id, advice):
    finding = diagnose(from_text(text, "x.log")).findings[0]
    assert finding.id == rule_id
    assert any(advice in fix for fix in finding.fixes), finding.fixes


def test_no_fix_names_a_removed_lightning_variable():
    # PL_TORCH_DISTRIBUTED_BACKEND was removed in Lightning 1.8
    finding = diagnose(from_text(CASES["nccl-not-in-build"][0], "x.log")).findings[0]
    assert not any("PL_TORCH_DISTRIBUTED_BACKEND" in fix for fix in finding.fixes)


def test_skypilots_and_vllms_logger_prefixes_are_read():
    # a level, a month-day time and a source line; an error level shows a failure
    controller = ("# (job pid=920210) I 05-04 00:52:46 controller.py:100] The cluster is "
                  "preempted.\n# (job pid=920210) I 05-04 00:52:46 spot_state.py:99] === "
                  "Recovering... ===\n# (job pid=920210) E 05-04 00:53:16 backend_utils.py:999] "
                  "Failed to cancel jobs on cluster job-39.\n")
    assert [f.id for f in diagnose(from_text(controller, "x.log")).findings] == [
        "platform-preempted"]
    recovered = controller.replace(" E 05-04", " I 05-04") + "step 10 loss 2.0\ndone\n"
    assert diagnose(from_text(recovered, "x.log")).status == "no_failure"
    vllm = ("INFO 07-16 13:25:31 [core.py:96] Initializing a V1 LLM engine\nERROR 07-16 13:25:40 "
            "[core.py:588] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 "
            "GiB\n")
    assert diagnose(from_text(vllm, "x.log")).findings[0].id == "cuda-oom"
    assert diagnose(from_text(vllm.split("ERROR")[0], "x.log")).status == "no_failure"


def test_slurms_memory_limit_kill_is_an_oom_kill_before_its_cancellation():
    killed = ("step 1200 loss 2.31\nslurmstepd: error: Job 552211 exceeded memory limit "
              "(65012345 > 62914560), being killed\nslurmstepd: error: Exceeded job memory "
              "limit\nslurmstepd: error: *** JOB 552211 ON node12 CANCELLED AT "
              "2023-01-05T10:11:12 ***\n")
    assert [f.id for f in diagnose(from_text(killed, "slurm.out")).findings] == ["oom-killer"]
    # Slurm 15-17's "at some point" is a note on the cgroup's fail count, not a kill
    noted = ("slurmstepd: error: Exceeded step memory limit at some point.\nslurmstepd: error: "
             "*** JOB 552211 ON node12 CANCELLED AT 2023-01-05T10:11:12 ***\n")
    assert [f.id for f in diagnose(from_text(noted, "slurm.out")).findings] == ["slurm-cancelled"]


def test_an_exception_python_ignored_is_not_the_failure():
    ignored = next(line for line in HEALTHY_NEIGHBOURS if line.startswith("Exception ignored"))
    assert ignored.startswith("Exception ignored in")
    result = diagnose(from_text(ignored + TRACE + "torch.OutOfMemoryError: CUDA out of memory. "
                                "Tried to allocate 2.00 GiB\n", "train.log"))
    assert result.findings[0].id == "cuda-oom"
    assert all("child process" not in e.text for f in result.findings for e in f.evidence)


WINDOWS_TEMP_CLEANUP = (
    "Exception ignored in: <finalize object at 0x1c2b3a4d5e0; dead>\n" + TRACE
    + "PermissionError: [WinError 32] The process cannot access the file because it is being "
    "used by another process: 'C:\\\\Users\\\\me\\\\AppData\\\\Local\\\\Temp\\\\tmpab12cd'\n")


def test_a_rules_line_in_an_ignored_traceback_is_no_evidence():
    # tempfile's clean-up at exit on Windows: the run had finished; no rule's line, even the
    # log's last one
    finished = "Epoch 3/3: 100%|###| 500/500 [02:10<00:00]\nTraining finished.\n"
    assert diagnose(from_text(finished + WINDOWS_TEMP_CLEANUP, "train.log")).status == "no_failure"
    # the same message where the run itself raised it still names its cause
    raised = TRACE + WINDOWS_TEMP_CLEANUP.split(TRACE)[1]
    assert diagnose(from_text(finished + raised, "train.log")).findings[0].id == (
        "windows-file-in-use")
    # a failure before the ignored clean-up keeps its own cause
    failed = TRACE + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    assert [f.id for f in diagnose(from_text(failed + WINDOWS_TEMP_CLEANUP, "x.log")).findings][
        :1] == ["cuda-oom"]


def test_an_ignored_exceptions_message_over_several_lines_is_no_evidence():
    # PyOpenGL's EGLError repr (indented fields, a closing bracket) in a destructor at exit;
    # the log's reading that joins wrapped lines puts the traceback's head on the first line
    cleanup = ("Evaluation finished: success rate 0.92\nException ignored in: <function "
               "EGLGLContext.__del__ at 0x7f3f>\n" + TRACE + "OpenGL.raw.EGL._errors.EGLError: "
               "EGLError(\n\terr = EGL_NOT_INITIALIZED,\n\tbaseOperation = eglInitialize,\n"
               "\tcArguments = (\n\t),\n\tresult = 0\n)\n")
    assert diagnose(from_text(cleanup, "eval.log")).status == "no_failure"
    raised = cleanup.split("Exception ignored in")[0] + TRACE + cleanup.split(TRACE)[1]
    assert diagnose(from_text(raised, "eval.log")).findings[0].id == "egl-not-initialized"
    # an atexit handler's exception: Python prints it and the exit status stays the run's
    at_exit = raised.replace(TRACE, "Error in atexit._run_exitfuncs:\n" + TRACE)
    assert diagnose(from_text(at_exit, "eval.log")).status == "no_failure"


AUTOTUNE = "[rank1]:E0324 10:11:12.345000 4242 torch/_inductor/select_algorithm.py:1905] [0/0] "


def _autotune_record(first: str, message: str, traceback: str = "") -> str:
    lines = [first, message, "Ignoring this choice.", *traceback.splitlines()]
    return "".join(AUTOTUNE + line + "\n" for line in lines)


SKIPPED_CHOICES = [
    _autotune_record("Runtime error during autotuning: ", "No valid triton configs. "
                     "OutOfResources: out of resource: shared memory, Required: 131072, Hardware "
                     "limit: 101376. Reducing block sizes or `num_stages` may help.. "),
    _autotune_record("Runtime error during autotuning: ", "CUDA out of memory. Tried to allocate "
                     "2.00 GiB. GPU 0 has a total capacity of 79.1 GiB of which 1.2 GiB is free. "),
    # log.exception: the traceback follows the record's last line, under the same prefix
    _autotune_record("CUDA compilation error during autotuning: ", "%s. ", TRACE + "torch._"
                     "inductor.exc.CUDACompileError: nvcc fatal   : Unsupported gpu architecture "
                     "'compute_90a'"),
]


@pytest.mark.parametrize("record", SKIPPED_CHOICES)
def test_a_failed_autotuning_candidate_is_no_failure(record):
    # Inductor benchmarks the other candidates: torch.compile went on
    run = "step 5 loss 2.0\n" + record + "step 6 loss 1.9\n"
    assert diagnose(from_text(run, "train.log")).status == "no_failure"
    failed = run + TRACE + "RuntimeError: Expected all tensors to be on the same device, but " \
        "found at least two devices, cuda:0 and cpu!\n"
    assert diagnose(from_text(failed, "train.log")).findings[0].id == "device-mismatch"
    # a record cut before its last line is no candidate skipped: the lines count
    cut = record.split(AUTOTUNE + "Ignoring this choice.")[0]
    assert diagnose(from_text(cut, "train.log")).status != "no_failure"


FALLBACK_WARNING = (
    "/src/torch_utils/ops/bias_act.py:50: UserWarning: Failed to build CUDA kernels for "
    "bias_act. Falling back to slow reference implementation. Details:\n\n" + TRACE
    + "    _plugin = custom_ops.get_plugin('bias_act_plugin', sources=sources)\nRuntimeError: "
    "Error building extension 'bias_act_plugin': [1/2] nvcc -c bias_act.cu\nFAILED: "
    "bias_act.cuda.o\nninja: build stopped: subcommand failed.\n\n  warnings.warn('Failed to "
    "build CUDA kernels for bias_act. Falling back to slow reference implementation. Details:"
    "\\n\\n' + traceback.format_exc())\n")


def test_a_traceback_a_library_warns_with_before_its_fallback_is_no_failure():
    # Python's warnings line, the caught traceback in its message, the warn call's source line
    ticks = "tick 1     kimg 4.0      time 3m 10s\n"
    assert diagnose(from_text(FALLBACK_WARNING + ticks, "log.txt")).status == "no_failure"
    # without the source line that closes the warning, the traceback is the run's own
    unclosed = FALLBACK_WARNING.split("\n\n  warnings.warn")[0] + "\n" + ticks
    assert diagnose(from_text(unclosed, "log.txt")).status != "no_failure"
    # a warning printed without its source line, then the run's failure, then another
    # warning with its source line: the failure is not taken for the first warning's message
    failed = ("/src/a.py:10: UserWarning: the widget is old\n" + TRACE + "torch.OutOfMemoryError:"
              " CUDA out of memory. Tried to allocate 2.00 GiB\n/src/b.py:20: FutureWarning: "
              "frob is deprecated\n  warnings.warn(\n[rank1]: step 5 loss 2.0\n")
    assert diagnose(from_text(failed, "log.txt")).findings[0].id == "cuda-oom"


@pytest.mark.parametrize("line", HEALTHY_NEIGHBOURS)
def test_healthy_neighbours_of_the_error_messages_stay_quiet(line):
    assert diagnose(from_text(line, "healthy.log")).status == "no_failure"


@pytest.mark.parametrize(("text", "rule_id"), [
    # a healthy neighbour before a real failure changes nothing
    (HEALTHY_NEIGHBOURS[0] + TRACE + "torch.OutOfMemoryError: CUDA out of memory. Tried to "
     "allocate 2.00 GiB\n", "cuda-oom"),
    (HEALTHY_NEIGHBOURS[3] + "failed (exitcode: -9) local_rank: 0 (pid: 91) of binary: "
     "/usr/bin/python3\n", "oom-killer"),
    (HEALTHY_NEIGHBOURS[5] + TRACE + "RuntimeError: Expected all tensors to be on the same "
     "device, but found at least two devices, cuda:0 and cpu!\n", "device-mismatch"),
    # a command a library reports failed is not the job's exit
    (LIBRARY_COMMAND + "Signal 9 (SIGKILL) received by PID 1234\n", "oom-killer"),
    # a specific reason CUDA could not start beats "no usable GPU", which follows it
    ("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 802: "
     "system not yet initialized\n" + TRACE + "RuntimeError: No CUDA GPUs are available\n",
     "fabric-manager-not-running"),
    ("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 803: "
     "system has unsupported display driver / cuda driver combination\n" + TRACE
     + "RuntimeError: No CUDA GPUs are available\n", "driver-library-mismatch"),
    ("Failed to initialize NVML: Unknown Error\n" + TRACE + "RuntimeError: No CUDA GPUs are "
     "available\n", "container-lost-gpus"),
    # NCCL's driver-API checks number the error
    ("node1:7:9 [0] NCCL WARN Cuda failure 2 'out of memory'\n", "cuda-oom"),
    ("node1:7:9 [0] NCCL WARN Failed to CUDA calloc async 2432 bytes\n", "cuda-oom"),
    ("node1:7:9 [0] NCCL WARN Cuda failure 802 'system not yet initialized'\n",
     "fabric-manager-not-running"),
    # a DataLoader worker that died of the missing __main__ guard: the guard is the cause
    (TRACE + "RuntimeError: \n        An attempt has been made to start a new process before "
     "the\n        current process has finished its bootstrapping phase.\n" + TRACE
     + "RuntimeError: DataLoader worker (pid(s) 4242) exited unexpectedly\n", "spawn-main-guard"),
    # a quota, not a full disk, behind torch.save's own write error
    (TRACE + "RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos 2112 vs "
     "2006\nOSError: [Errno 122] Disk quota exceeded\n", "disk-quota"),
    ("safetensors_rust.SafetensorError: Error while serializing: IoError(Os { code: 122, kind: "
     "FilesystemQuotaExceeded, message: \"Disk quota exceeded\" })\n", "disk-quota"),
    # torch names a bfloat16 CUDA tensor by its type: still a dtype, not a device, problem
    (TRACE + "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type "
     "(CUDABFloat16Type) should be the same\n", "dtype-mismatch"),
    (TRACE + "RuntimeError: Input type (torch.cuda.FloatTensor) and bias type "
     "(torch.cuda.HalfTensor) should be the same\n", "dtype-mismatch"),
    # DTensor moved into torch.distributed.tensor in 2.5; older torch has the package
    (TRACE + "ImportError: cannot import name 'DTensor' from 'torch.distributed.tensor' "
     "(/venv/lib/python3.10/site-packages/torch/distributed/tensor/__init__.py)\n",
     "torch-too-old-for-api"),
    # transformers importing torch 2.2's device_mesh under torch 2.0 (through its lazy module)
    (TRACE + "RuntimeError: Failed to import transformers.models.bert.modeling_bert because of "
     "the following error (look up to see its traceback):\nNo module named "
     "'torch.distributed.device_mesh'\n", "torch-too-old-for-api"),
    # a module torch removed is the other way round
    (TRACE + "ModuleNotFoundError: No module named 'torch._six'\n", "torch-six-removed"),
])
def test_the_cause_behind_a_generic_line_comes_first(text, rule_id):
    assert diagnose(from_text(text, "case.log")).findings[0].id == rule_id


# What torch 2.13 itself printed (CPU), tracebacks cut to their last frame: an HTML page
# saved as a checkpoint, loaded with torch.load's default weights_only=True, and a float64
# batch through a float32 conv
TORCH_2_13_HTML_CHECKPOINT = (
    TRACE + "    raise pickle.UnpicklingError(_get_wo_message(str(e))) from None\n"
    "_pickle.UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default "
    "value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running "
    "`torch.load` with `weights_only` set to `False` will likely succeed, but it can result in "
    "arbitrary code execution. Do it only if you got the file from a trusted source.\n"
    "Please file an issue with the following so that we can make `weights_only=True` "
    "compatible with your use case: WeightsUnpickler error: \n\nUnsupported operand 60\n\n"
    "Check the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.\n")
TORCH_2_13_DOUBLE_INPUT = (
    TRACE + "    return F.conv2d(\n           ^^^^^^^^^\nRuntimeError: Input type (double) and "
    "bias type (float) should be the same\n")


def test_real_torch_output_names_the_cause():
    # weights_only's refusal of a file that is no pickle at all ('<': an HTML page) is the
    # file, not the default: weights_only=False would only fail again
    html = diagnose(from_text(TORCH_2_13_HTML_CHECKPOINT, "load.log"))
    assert html.findings[0].id == "checkpoint-corrupt"
    refused_class = TORCH_2_13_HTML_CHECKPOINT.replace(
        "Unsupported operand 60", "Unsupported global: GLOBAL argparse.Namespace was not an "
        "allowed global by default.")
    assert diagnose(from_text(refused_class, "load.log")).findings[0].id == "torch-load-weights-only"
    assert diagnose(from_text(TORCH_2_13_DOUBLE_INPUT, "conv.log")).findings[0].id == "dtype-mismatch"


# Logs a reviewer built against the fourth count of rules: a warning printed at import, a
# project folder shadowing a library, a thread's own error above the main thread's echo, an
# ignored exception of another name or rank: the first finding is the real cause.
REVIEWED = [
    ("[2024-03-11 10:02:14,877] [WARNING] [engine.py:2916:_get_all_zero_checkpoint_names] The "
     "following zero checkpoints paths are missing: ['/data/ckpt/zero_pp_rank_0_mp_rank_00_optim_"
     "states.pt']\niteration 300/2000 | lm loss 2.102E+00 |\n" + TRACE
     + "AttributeError: 'list' object has no attribute 'to'\n", "python-exception",
     "AttributeError"),
    (TRACE + "TypeError: LanguageModelSAETrainingRunner.__init__() got an unexpected keyword "
     "argument 'resume_from_checkpoint'\n", "python-exception", "TypeError"),
    (
        "2023-03-01 10:12:03.118201: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
        '2023-03-01 10:12:03.118244: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a GPU set up on your machine.\n'
        '***** Running training *****\n'
        '  Num examples = 25000\n'
        'Traceback (most recent call last):\n'
        '  File "run_glue.py", line 612, in <module>\n'
        '    main()\n'
        '  File "run_glue.py", line 540, in main\n'
        '    train_result = trainer.train(resume_from_checkpoint=checkpoint)\n'
        '  File "/venv/lib/python3.8/site-packages/transformers/trainer.py", line 2283, in compute_loss\n'
        '    loss = outputs["loss"] if isinstance(outputs, dict) else outputs[0]\n'
        "KeyError: 'loss'\n",
     'python-exception', "KeyError: 'loss'"),
    (
        'Traceback (most recent call last):\n'
        '  File "D:\\CSAD-main\\CSAD.py", line 15, in <module>\n'
        '    from data_loader import MVTecLOCODataset,InfiniteDataloader,ImageNetDataset\n'
        '  File "D:\\CSAD-main\\data_loader.py", line 7, in <module>\n'
        '    from datasets import load_dataset as hf_load_dataset\n'
        "ImportError: cannot import name 'load_dataset' from 'datasets' (unknown location)\n",
     'module-not-found', None),
    (
        'Exception in thread Thread-3:\n'
        'Traceback (most recent call last):\n'
        '  File "/usr/lib/python3.8/threading.py", line 932, in _bootstrap_inner\n'
        '    self.run()\n'
        '  File "/usr/lib/python3.8/threading.py", line 870, in run\n'
        '    self._target(*self._args, **self._kwargs)\n'
        '  File "/venv/lib/python3.8/site-packages/torch/utils/data/_utils/pin_memory.py", line 28, in _pin_memory_loop\n'
        '    r = in_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)\n'
        '  File "/usr/lib/python3.8/multiprocessing/queues.py", line 116, in get\n'
        '    return _ForkingPickler.loads(res)\n'
        '  File "/venv/lib/python3.8/site-packages/torch/multiprocessing/reductions.py", line 282, in rebuild_storage_fd\n'
        '    fd = df.detach()\n'
        '  File "/usr/lib/python3.8/multiprocessing/resource_sharer.py", line 58, in detach\n'
        '    return reduction.recv_handle(conn)\n'
        '  File "/usr/lib/python3.8/multiprocessing/reduction.py", line 189, in recv_handle\n'
        '    return recvfds(s, 1)[0]\n'
        '  File "/usr/lib/python3.8/multiprocessing/reduction.py", line 164, in recvfds\n'
        "    raise RuntimeError('received %d items of ancdata' %\n"
        'RuntimeError: received 0 items of ancdata\n'
        'Traceback (most recent call last):\n'
        '  File "train.py", line 120, in <module>\n'
        '    for i, (x, y) in enumerate(loader):\n'
        '  File "/venv/lib/python3.8/site-packages/torch/utils/data/dataloader.py", line 435, in __next__\n'
        '    data = self._next_data()\n'
        '  File "/venv/lib/python3.8/site-packages/torch/utils/data/dataloader.py", line 1068, in _next_data\n'
        '    idx, data = self._get_data()\n'
        '  File "/venv/lib/python3.8/site-packages/torch/utils/data/dataloader.py", line 1029, in _get_data\n'
        "    raise RuntimeError('Pin memory thread exited unexpectedly')\n"
        'RuntimeError: Pin memory thread exited unexpectedly\n',
     'too-many-open-files', None),
    (
        'Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f62eb6ed630>\n'
        'Traceback (most recent call last):\n'
        '  File "/venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1466, in __del__\n'
        '    self._shutdown_workers()\n'
        '  File "/venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1430, in _shutdown_workers\n'
        '    self._worker_result_queue.get(timeout=_utils.MP_STATUS_CHECK_INTERVAL)\n'
        '  File "/usr/lib/python3.10/multiprocessing/queues.py", line 114, in get\n'
        '    raise Empty\n'
        '_queue.Empty: \n'
        'Validation: 100%|██████████| 50/50 [00:10<00:00,  4.90it/s]\n'
        'epoch 1 step 2000 loss 0.611\n'
        'Traceback (most recent call last):\n'
        '  File "/home/u/train.py", line 88, in <module>\n'
        '    main()\n'
        '  File "/home/u/train.py", line 80, in main\n'
        '    loss = criterion(out, batch["labels"])\n'
        "KeyError: 'labels'\n",
     'python-exception', "KeyError: 'labels'"),
    (
        '[rank1]: Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f62eb6ed630>\n'
        '[rank0]: Traceback (most recent call last):\n'
        '[rank0]:   File "/workspace/train.py", line 88, in <module>\n'
        '[rank0]:     main()\n'
        '[rank0]:   File "/workspace/train.py", line 80, in main\n'
        '[rank0]:     loss = criterion(out, batch["labels"])\n'
        "[rank0]: KeyError: 'labels'\n"
        '[rank1]: Traceback (most recent call last):\n'
        '[rank1]:   File "/venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1466, in __del__\n'
        '[rank1]:     self._shutdown_workers()\n'
        '[rank1]:   File "/usr/lib/python3.10/multiprocessing/process.py", line 160, in is_alive\n'
        "[rank1]:     assert self._parent_pid == os.getpid(), 'can only test a child process'\n"
        '[rank1]: AssertionError: can only test a child process\n',
     'python-exception', "KeyError: 'labels'"),
    (
        '/Users/me/venv/lib/python3.11/site-packages/bitsandbytes/cextension.py:34: UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n'
        '  warn("The installed version of bitsandbytes was compiled without GPU support. "\n'
        "'NoneType' object has no attribute 'cadam32bit_grad_fp32'\n"
        'Traceback (most recent call last):\n'
        '  File "/Users/me/proj/train.py", line 57, in <module>\n'
        '    model.load_state_dict(torch.load("ckpt.pt", map_location="cpu"))\n'
        '  File "/Users/me/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 2152, in load_state_dict\n'
        "    raise RuntimeError('Error(s) in loading state_dict for {}:\\n\\t{}'.format(\n"
        'RuntimeError: Error(s) in loading state_dict for GPT:\n'
        '\tUnexpected key(s) in state_dict: "lm_head.bias".\n',
     'state-dict-keys', None),
    (
        '/home/u/anaconda3/envs/gim/lib/python3.8/site-packages/torchvision/io/image.py:11: UserWarning: Failed to load image Python extension: libc10_cuda.so: cannot open shared object file: No such file or directory\n'
        '  warn(f"Failed to load image Python extension: {e}")\n'
        'Traceback (most recent call last):\n'
        '  File "demo.py", line 316, in <module>\n'
        "    state_dict = torch.load(checkpoints_path, map_location='cpu')\n"
        '  File "/home/u/anaconda3/envs/gim/lib/python3.8/site-packages/torch/serialization.py", line 608, in load\n'
        '    return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)\n'
        '  File "/home/u/anaconda3/envs/gim/lib/python3.8/site-packages/torch/serialization.py", line 777, in _legacy_load\n'
        '    magic_number = pickle_module.load(f, **pickle_load_args)\n'
        "_pickle.UnpicklingError: invalid load key, 'v'.\n",
     'checkpoint-corrupt', None),
]


@pytest.mark.parametrize(("text", "rule_id", "evidence"), REVIEWED)
def test_the_real_cause_comes_before_what_only_looks_like_one(text, rule_id, evidence):
    result = diagnose(from_text(text, "train.log"))
    assert [f.id for f in result.findings][:1] == [rule_id], [f.id for f in result.findings]
    if evidence:
        assert any(evidence in e.text for e in result.findings[0].evidence)


def test_a_rank_killed_by_sigill_is_an_instruction_the_cpu_lacks():
    text = ("E0312 10:21:33.123000 140 torch/distributed/elastic/multiprocessing/api.py:833] failed "
            "(exitcode: -4) local_rank: 0 (pid: 211) of binary: /usr/bin/python\n"
            "  exitcode  : -4 (pid: 211)\n  traceback : Signal 4 (SIGILL) received by PID 211\n")
    result = diagnose(from_text(text, "torchrun.log"))
    assert [f.id for f in result.findings][:1] == ["illegal-instruction"]


# Read at regex speed over the whole text, where every other pattern is first looked for by a
# literal keyword at memchr speed (a pattern without one cost 2.5 s on a 100 MB log).
WITHOUT_KEYWORD: set[str] = set()


def test_every_pattern_has_a_literal_keyword():
    missing = sorted({rule.id for rule in load_rules() for pattern in rule.every_pattern
                      if pattern.keyword is None and not pattern.ignore_case})
    assert missing == sorted(WITHOUT_KEYWORD)


def test_cuda_error_804_comes_before_the_missing_gpu_it_causes():
    text = ("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error "
            "804: forward compatibility was attempted on non supported HW\n" + TRACE
            + "RuntimeError: Found no NVIDIA driver on your system.\n")
    result = diagnose(from_text(text, "train.log"))
    assert [f.id for f in result.findings][:1] == ["container-cuda-too-new"]


def test_time_stamped_lines_are_read_as_the_program_wrote_them():
    """kubectl logs --timestamps, docker logs -t: an RFC 3339 stamp before every line."""
    body = ["Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f6>",
            "Traceback (most recent call last):",
            '  File "/venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line '
            "1466, in __del__",
            "AssertionError: can only test a child process",
            "epoch 1 step 2000 loss 0.611",
            "Traceback (most recent call last):",
            '  File "/workspace/train.py", line 80, in main',
            '    loss = criterion(out, batch["labels"])',
            "KeyError: 'labels'"]
    text = "".join(f"2024-05-01T12:00:{n:02d}.123456789Z {line}\n" for n, line in enumerate(body))
    result = diagnose(from_text(text, "pod.log"))
    assert [f.id for f in result.findings] == ["python-exception"]
    assert result.findings[0].evidence[0].text.startswith("KeyError: 'labels'")


# A line that names a cause only beside another: the frame an exception was raised in, the
# library a crash's backtrace is in (``paired`` / ``near``)
OLD_SYNCBN = (  # torch 1.x's SyncBatchNorm.forward asked for the world size of no group
    'Traceback (most recent call last):\n  File "tools/train.py", line 161, in <module>\n'
    '  File "/usr/lib/python3/dist-packages/torch/nn/modules/batchnorm.py", line 493, in '
    'forward\n    world_size = torch.distributed.get_world_size(process_group)\n'
    '  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 620, '
    'in get_world_size\n    return _get_group_size(group)\n'
    '  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 210, '
    'in _check_default_pg\n    "Default process group is not initialized"\n'
    "AssertionError: Default process group is not initialized\n")
MMCV_SYNCBN = (  # mmcv's own SyncBN asks for it when it is built
    'Traceback (most recent call last):\n  File "tools/train.py", line 98, in main\n'
    '    model = build_segmentor(cfg.model)\n'
    '  File "/opt/conda/lib/python3.8/site-packages/mmcv/ops/sync_bn.py", line 210, in '
    '__init__\n    self.group_size = dist.get_world_size(self.group)\n'
    '  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", '
    'line 867, in get_world_size\n    return _get_group_size(group)\n'
    "RuntimeError: Default process group has not been initialized, please make sure to call "
    "init_process_group.\n")
USER_GET_RANK = (
    'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n'
    "    rank = dist.get_rank()\n"
    "RuntimeError: Default process group has not been initialized, please make sure to call "
    "init_process_group.\n")
NCCL_BUS_ERROR = (  # UCX's crash report of a bus error in NCCL's proxy thread
    "[gpu-node-3:1    :0:381] Caught signal 7 (Bus error: nonexistent physical address)\n"
    "==== backtrace (tid:    381) ====\n 0 0x00000000000143c0 __funlockfile()  ???:0\n"
    " 1 0x0000000000068d6c ncclGroupEnd()  ???:0\n 2 0x0000000000008609 start_thread()  ???:0\n"
    "=================================\n")
LOADER_BUS_ERROR = (  # a DataLoader worker's bus error in a log full of NCCL's start-up chatter
    "gpu-node-3:381:381 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n"
    "gpu-node-3:381:395 [0] NCCL INFO ncclCommInitRank comm 0x5581 rank 0 nranks 2 - Init "
    "COMPLETE\n" + TRACE +
    "RuntimeError: DataLoader worker (pid 4012) is killed by signal: Bus error. It is possible "
    "that dataloader's workers are out of shared memory. Please try to raise your shared "
    "memory limit.\n")


@pytest.mark.parametrize(("text", "rule_id"), [
    (OLD_SYNCBN, "syncbn-without-ddp"),
    (MMCV_SYNCBN, "syncbn-without-ddp"),
    (USER_GET_RANK, "process-group-not-initialized"),
    (NCCL_BUS_ERROR, "nccl-shm"),
    # the bus error is the DataLoader's; NCCL's frames are not in its report
    ("".join(f"step {i} loss 0.5\n" for i in range(40)).join(
        (NCCL_BUS_ERROR.replace("Caught signal 7 (Bus error: nonexistent physical address)",
                                "NCCL INFO Channel 00 : 0 1"), LOADER_BUS_ERROR)),
     "shm-exhausted"),
    (LOADER_BUS_ERROR, "shm-exhausted"),
    # the DataLoader's report of its worker's bus error, with NCCL's crash report after it
    (LOADER_BUS_ERROR + NCCL_BUS_ERROR.replace(
        "Caught signal 7 (Bus error: nonexistent physical address)",
        "Caught signal 11 (Segmentation fault: address not mapped to object at address 0x8)"),
     "shm-exhausted"),
    # another rank's NCCL frames, interleaved with this rank's bus error
    ("[rank0]: ERROR: Unexpected bus error encountered in worker. This might be caused by "
     "insufficient shared memory (shm).\n" + "".join(
         f"[rank1]: /usr/lib/x86_64-linux-gnu/libnccl.so.2(+0x6d3a{i})[0x7f0000{i}]\n"
         for i in range(4)) + "[rank0]: Bus error (core dumped)\n", "shm-exhausted"),
    # a BatchNorm forward's own failure, then a clean-up that finds no process group: the
    # frame belongs to the first traceback, not to the one of the message
    (OLD_SYNCBN.replace("    world_size = torch.distributed.get_world_size(process_group)\n",
                        "    return F.batch_norm(\n").split("  File \"/usr/lib/python3/dist-"
                                                           "packages/torch/distributed")[0]
     + "RuntimeError: running_mean should contain 64 elements not 128\n\nDuring handling of "
     "the above exception, another exception occurred:\n\n" + USER_GET_RANK.replace(
         "rank = dist.get_rank()", "dist.destroy_process_group()"),
     "process-group-not-initialized"),
])
def test_a_line_names_its_cause_beside_the_frames_it_came_from(text, rule_id):
    assert diagnose(from_text(text, "case.log")).findings[0].id == rule_id


def test_a_paired_line_far_from_its_neighbour_is_no_evidence():
    far = NCCL_BUS_ERROR.replace(" 1 0x0000000000068d6c ncclGroupEnd()  ???:0\n", "") + "".join(
        f"step {i} loss 0.5\n" for i in range(40)) + " 9 0x0000000000068d6c ncclGroupEnd()  ???:0\n"
    assert diagnose(from_text(far, "case.log")).findings[0].id == "shm-exhausted"


def test_pdsh_host_prefixes_are_read():
    # DeepSpeed's multi-node runner prints each node's lines after its host (pdsh)
    log = ("worker-1: [rank9]: Traceback (most recent call last):\n"
           'worker-1: [rank9]:   File "train.py", line 12, in <module>\n'
           "worker-1: [rank9]: ZeroDivisionError: division by zero\n"
           "10.0.0.3: step 20 loss 2.1\n")
    diagnosis = diagnose(from_text(log, "x.log"))
    assert diagnosis.findings[0].id == "python-exception"
    assert diagnosis.findings[0].rank == 9
    assert diagnose(from_text("worker-1: step 20 loss 2.1\nworker-1: done\n",
                              "x.log")).status == "no_failure"
    # a script's name before argparse's error is no host
    usage = "usage: train3.py [-h]\ntrain3.py: error: unrecognized arguments: --fast\n"
    assert diagnose(from_text(usage, "x.log")).status != "no_failure"


def test_horovodruns_rank_prefixes_and_a_prefixed_shell_report_are_read():
    # horovodrun tags each line with its rank; the shell's "Killed" comes after the tag, and
    # the others' gloo IoException is the peer they lost, not a crash of their own
    log = ("[0]<stderr>:epoch 1 batch 0\n[0]<stderr>:Killed\n"
           "[1]<stderr>:terminate called after throwing an instance of 'gloo::IoException'\n"
           "[1]<stderr>:  what():  [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:589] "
           "Read error [127.0.0.1]:3977: Connection reset by peer\n"
           "[1]<stderr>:Aborted (core dumped)\n")
    diagnosis = diagnose(from_text(log, "x.log"))
    assert (diagnosis.findings[0].id, diagnosis.findings[0].rank) == ("oom-killer", 0)
    assert "native-abort" not in [f.id for f in diagnosis.findings]
    # another C++ exception's abort is still one
    other = log.replace("'gloo::IoException'", "'c10::Error'").replace("[0]<stderr>:Killed\n", "")
    assert diagnose(from_text(other, "x.log")).findings[0].id == "native-abort"


def test_a_ctrl_c_is_a_hang_only_where_a_rank_waited_in_a_collective():
    waited = diagnose(from_text(CASES["interrupted-in-collective"][0], "x.log"))
    assert [e.text.split(",")[-1].strip() for e in waited.findings[0].evidence] == [
        "KeyboardInterrupt", "in barrier"]
    # stopped in its own code: no collective in its frames, another rank's frame is no help
    own = ('Traceback (most recent call last):\n  File "train.py", line 80, in <module>\n'
           "    time.sleep(1)\nKeyboardInterrupt\n")
    assert diagnose(from_text(own, "x.log")).findings[0].id != "interrupted-in-collective"
    other_rank = (CASES["interrupted-in-collective"][0].replace("[rank1]: KeyboardInterrupt",
                                                                 "[rank1]: ValueError: bad")
                  + "[rank0]: Traceback (most recent call last):\n[rank0]: KeyboardInterrupt\n")
    assert "interrupted-in-collective" not in [
        f.id for f in diagnose(from_text(other_rank, "x.log")).findings]


def test_an_unexpected_argument_in_the_scripts_own_call_is_no_version_skew():
    # the script's own call is the last frame (a library's wrapper only further up)
    log = ("Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/"
           "torch/distributed/elastic/multiprocessing/errors/__init__.py\", line 346, in "
           "wrapper\n    return f(*args, **kwargs)\n  File \"/work/train.py\", line 40, in main\n"
           "    model = build_model(depth=12, widht=768)\nTypeError: build_model() got an "
           "unexpected keyword argument 'widht'\n")
    assert diagnose(from_text(log, "x.log")).findings[0].id == "python-exception"


def test_nccls_error_trace_is_a_cause_where_the_run_stopped_at_it():
    trace = ("node:7:9 [0] graph/search.cc:719 NCCL WARN XML Import Channel : net 3 is unknown\n"
             "node:7:9 [0] NCCL INFO graph/search.cc:749 -> 2\n"
             "node:7:9 [0] NCCL INFO init.cc:1005 -> 2\n")
    assert diagnose(from_text(trace, "x.log")).findings[0].id == "nccl-call-failed"
    # a plugin NCCL tried and went on without: the run trained after it
    went_on = trace + "node:7:9 [0] NCCL INFO Using network Socket\n[rank0]: step 100 loss 2.1\n"
    assert diagnose(from_text(went_on, "x.log")).status == "no_failure"


def test_a_log_that_stops_at_the_hubs_rate_limit_names_it():
    log = ("HTTP Error 429 thrown while requesting HEAD https://huggingface.co/meta-llama/"
           "Llama-3.1-8B/resolve/main/config.json\nRate limited. Waiting 253.0s before retry "
           "[Retry 1/5].\n")
    assert diagnose(from_text(log, "x.log")).findings[0].id == "hf-hub-rate-limited"


def test_an_extensions_undefined_symbol_pasted_over_two_lines_is_read():
    log = ("ImportError:\n/usr/lib/python3/dist-packages/flash_attn_2_cuda.cpython-311-x86_64-"
           "linux-gnu.so\n: undefined symbol: _ZN3c104cuda9SetDeviceEi\n")
    assert diagnose(from_text(log, "x.log")).findings[0].id == "extension-abi-mismatch"


@pytest.mark.parametrize(("text", "rule_id"), [
    # patterns with a lookbehind or a lookahead (once looked for by the text they rule out)
    (TRACE + "    import cv2\nAttributeError: _ARRAY_API not found\n", "numpy-abi"),
    (TRACE + "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: "
     "https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json\n",
     "model-hub-gated"),
    ("step 100 loss 2.0\nslurmstepd: error: Exceeded job memory limit\n", "oom-killer"),
    ("[node:1 :0:381] Caught signal 7 (Bus error: nonexistent physical address)\n==== backtrace "
     "(tid: 381) ====\n 1 0x0000000000068d6c ncclGroupEnd()  ???:0\n", "nccl-shm"),
])
def test_a_pattern_with_a_lookaround_is_read(text, rule_id):
    assert diagnose(from_text(text, "x.log")).findings[0].id == rule_id


HUB_RETRIES = ("HTTP Error 429 thrown while requesting HEAD https://huggingface.co/meta-llama/"
               "Llama-3.1-8B/resolve/main/config.json\nRate limited. Waiting 2.0s before retry "
               "[Retry 1/5].\n")


@pytest.mark.parametrize(("text", "rule_id"), [
    # the Hub's retries worked and the run failed later for a reason of its own
    (HUB_RETRIES + "Loading checkpoint shards: 100%|##########| 4/4\n" + TRACE
     + "KeyError: 'labels'\n", "python-exception"),
    (HUB_RETRIES + "step 1 loss 2.3\nRoot Cause (first observed failure):\n[0]:\n"
     "  exitcode  : -9 (pid: 1234)\n  traceback : Signal 9 (SIGKILL) received by PID 1234\n",
     "oom-killer"),
    # the retries gave up: transformers' own message, or huggingface_hub 1.x's (httpx)
    (HUB_RETRIES * 5 + TRACE + "OSError: We couldn't connect to 'https://huggingface.co' to "
     "load this file, couldn't find it in the cached files.\n", "hf-hub-rate-limited"),
    (TRACE + "huggingface_hub.errors.HfHubHTTPError: Client error '429 Too Many Requests' for "
     "url 'https://huggingface.co/api/models/meta-llama/Llama-3.1-8B/revision/main'\n",
     "hf-hub-rate-limited"),
    # Llama 2 and 3 name the empty folder before they count the shards
    (TRACE + "AssertionError: no checkpoint files found in llama-2-7b/\n",
     "model-checkpoint-shards-not-found"),
    # vLLM before the world-size check named the tensor-parallel size
    (TRACE + "AssertionError: please set tensor_parallel_size (4) to less than max local gpu "
     "count (2)\n", "vllm-local-world-size"),
    # Unsloth's refusal in its source, grepped into a log of a run that works
    ("site-packages/unsloth/models/llama.py:1645:        raise RuntimeError('Unsloth currently "
     "does not support multi GPU setups - but we are working on it!')\n# Unsloth currently does "
     "not work on multi GPU setups - sadly we are a 2 brother team\nstep 1 loss 2.0\n", None),
])
def test_the_new_rules_on_their_neighbours(text, rule_id):
    findings = diagnose(from_text(text, "x.log")).findings
    assert (findings[0].id if findings else None) == rule_id


def test_syncbn_without_a_process_group_names_the_launcher_switch():
    # OpenMMLab's tools/train.py started by torchrun without --launcher pytorch never sets up
    # the process group: the advice must say how to tell the script
    fixes = diagnose(from_text(MMCV_SYNCBN, "x.log")).findings[0].fixes
    assert any("--launcher pytorch" in fix for fix in fixes)


def test_the_hub_advice_names_the_cli_that_exists():
    # huggingface_hub 1.0 removed huggingface-cli (hf replaced it in 0.34): name hf first
    for rule in load_rules():
        for fix in rule.fixes:
            if "huggingface-cli" in fix:
                assert "hf download" in fix or "hf auth login" in fix, (rule.id, fix)


def _joined(rank: int, world: int) -> str:
    return f"Initializing distributed: GLOBAL_RANK: {rank}, MEMBER: {rank + 1}/{world}\n"


def test_a_timeout_after_the_extension_loaded_is_the_runs_own():
    text = ("Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n"
            "Loading extension module fused_adam...\nTime to load fused_adam op: 0.1 seconds\n"
            + "{'loss': 0.9}\n" * 20
            + "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation"
            " timeout: WorkNCCL(SeqNum=5021, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)="
            "1800000) ran for 1800090 milliseconds before timing out.\n")
    assert [f.id for f in diagnose(from_text(text, "x.log")).findings] == ["collective-timeout"]


def test_a_log_that_stops_at_the_extensions_root_waits_on_a_lock():
    line = "Using /root/.cache/torch_extensions/py38_cpu as PyTorch extensions root...\n"
    assert diagnose(from_text(line * 3, "x.log")).findings[0].id == "torch-extension-stale-lock"
    # once, it is the line every build prints on its way
    assert diagnose(from_text(line, "x.log")).status == "no_failure"


def test_rays_disk_check_where_a_log_ends_is_no_failure():
    text = ("Epoch 3: 100%|##########| 500/500 [01:00<00:00]\n(raylet) [2025-08-10 22:43:27,018 "
            "E 18695 18729] file_system_monitor.cc:116: /tmp/ray/session_x is over 95% full, "
            "available space: 1.04582 GB; capacity: 30 GB. Object creation will fail if spilling "
            "is required.\n")
    assert diagnose(from_text(text, "x.log")).status == "no_failure"


def test_a_pasted_log_that_stops_as_ranks_join_is_no_stall():
    # working runs print the line on their way, and people paste their start-up only
    text = _joined(0, 8) + _joined(3, 8)
    assert diagnose(from_text(text, "pasted.log")).status == "no_failure"


def _failed_run(tmp_path: Path, logs: list[str]) -> list[str]:
    import json

    for rank, text in enumerate(logs):
        (tmp_path / f"rank{rank}.log").write_text(text)
    (tmp_path / "summary.json").write_text(json.dumps({
        "status": "failed", "exit_code": 1, "root_cause_rank": 0,
        "ranks": [{"global_rank": rank, "state": "failed" if rank == 0 else "stopped",
                   "returncode": 1 if rank == 0 else -15} for rank in range(len(logs))]}))
    return [f.id for f in diagnose(from_run_dir(tmp_path)).findings]


def test_a_failed_run_whose_ranks_stopped_as_they_joined_stalled_at_init(tmp_path):
    assert _failed_run(tmp_path, [_joined(0, 2), _joined(1, 2)])[0] == "ranks-stalled-at-init"


def test_ranks_stopped_by_ctrl_c_as_they_joined_stalled_at_init(tmp_path):
    rank0 = (_joined(0, 2) + TRACE + "  File \"/venv/lib/python3.10/site-packages/torch/"
             "distributed/rendezvous.py\", line 180, in _create_c10d_store\nKeyboardInterrupt\n")
    assert _failed_run(tmp_path, [rank0, _joined(1, 2)])[0] == "ranks-stalled-at-init"


def test_a_world_of_one_waits_for_nobody(tmp_path):
    assert "ranks-stalled-at-init" not in _failed_run(tmp_path, [_joined(0, 1)])


def test_ranks_that_joined_and_went_on_did_not_stall(tmp_path):
    # Lightning prints what follows the joining line on rank 0 only: the other ranks' logs
    # stop at it in every run, and rank 0's own error is the cause
    rank0 = (_joined(0, 2) + "All distributed processes registered. Starting with 2 processes\n"
             "Epoch 0: 100%|##########| 500/500\n" + TRACE + "ValueError: bad label 7\n")
    ids = _failed_run(tmp_path, [rank0, _joined(1, 2)])
    assert ids[0] == "python-exception" and "ranks-stalled-at-init" not in ids
    # an error raised before the ranks met (no "registered" line) is the cause too
    rank0 = _joined(0, 2) + TRACE + "KeyError: 'labels'\n"
    ids = _failed_run(tmp_path, [rank0, _joined(1, 2)])
    assert ids[0] == "python-exception" and "ranks-stalled-at-init" not in ids


def test_an_excerpt_cut_inside_a_repeated_line_stops_at_that_line():
    waiting = ("Waiting in store based barrier to initialize process group for rank: 0, key: "
               "store_based_barrier_key:1 (world_size=4, worker_count=8, timeout=0:01:00)\n")
    cut = waiting * 3 + waiting[:90]
    assert diagnose(from_text(cut, "cut.log")).findings[0].id == "process-group-timeout-too-short"
    went_on = waiting * 3 + "Rank 0: Completed store-based barrier\n" + waiting[:90]
    assert diagnose(from_text(went_on, "ok.log")).status == "no_failure"
    short = waiting * 3 + waiting[:12]  # too little of the line to call it a copy
    assert diagnose(from_text(short, "short.log")).status == "no_failure"


def test_a_repeated_line_a_terminal_cut_at_its_width_stops_where_the_excerpt_does():
    waiting = ("Waiting in store based barrier to initialize process group for rank: 0, key: "
               "store_based_barrier_key:1 (world_size=4, worker_count=8, timeout=0:01:00)")
    width = 100  # each copy on two lines: the terminal's width, then the rest
    wrapped = f"{waiting[:width]}\n{waiting[width:]}\n"
    cut = wrapped * 3 + waiting[:90]
    assert diagnose(from_text(cut, "cut.log")).findings[0].id == "process-group-timeout-too-short"
    went_on = wrapped * 3 + "Rank 0: Completed store-based barrier\n" + waiting[:90]
    assert diagnose(from_text(went_on, "ok.log")).status == "no_failure"


def test_a_message_wrapped_where_it_had_a_space_is_read_over_the_break():
    text = ("ImportError: cannot import name 'is_npu_available' from 'accelerate.utils' \n"
            "(/opt/conda/lib/python3.10/site-packages/accelerate/utils/__init__.py)\n")
    result = diagnose(from_text(text, "wrapped.log"))
    assert result.findings[0].id == "library-version-skew"
    assert "cannot import name" in result.findings[0].evidence[0].text
    # a match must start on the keyword's line: the next line alone proves nothing
    assert diagnose(from_text("(/opt/conda/lib/python3.10/site-packages/x.py)\n",
                              "x.log")).status == "no_failure"


def _filled(text: str, width: int) -> str:
    """``text`` with each long line filled at words to ``width``, as a mail or a page does."""
    import textwrap
    return "".join(textwrap.fill(line, width, break_on_hyphens=False) + "\n"
                   if len(line) > width else line + "\n" for line in text.splitlines())


@pytest.mark.parametrize("quoted", [
    "The size of tensor a (0) must match the size of tensor b (4096) at non-singleton "
    "dimension 1",
    '"Output 0 of ViewBackward0 is a view and its base or another view of its base has been '
    'modified inplace. This view is the output of a function that returns multiple views."',
    "mat1 and mat2 shapes cannot be multiplied (8x512 and 1024x10)",
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [torch.cuda.FloatTensor [512]] is at version 3; expected version 2 instead.",
])
def test_torchs_error_quoted_without_its_exception_is_a_failure(quoted):
    # an issue's one line: torch's message without "RuntimeError: " before it
    result = diagnose(from_text("while training on 2 GPUs:\n" + quoted + "\n", "issue.txt"))
    assert result.status == "diagnosed"
    assert any(quoted.strip('"')[:40] in e.text for e in result.findings[0].evidence)


def test_torchs_error_words_in_a_healthy_line_are_no_failure():
    log = ("step 10 loss 2.1 (checked: the size of tensor a matches b)\n"
           "INFO all tensors on the same device: cuda:0\n"
           "loading state_dict for model from ckpt.pt: 0 missing keys\n")
    assert diagnose(from_text(log, "run.log")).status == "no_failure"
    # a run that catches one, prints it (print(e)) and goes on
    caught = ("step 10 loss 2.1\nThe size of tensor a (3) must match the size of tensor b (4) "
              "at non-singleton dimension 0\nskipping batch 11\nstep 12 loss 2.0\ndone\n")
    assert diagnose(from_text(caught, "run.log")).status == "no_failure"


def test_a_short_paragraph_filled_at_words_is_read_with_spaces_too():
    # two lines of one width in a short log look like a terminal's cut (joined without a
    # space: "notavailable"); they are also read as a fill's breaks, with spaces
    log = ("Exception has occurred: MisconfigurationException\n" + _filled(
        "GPUAccelerator can not run on your system since the accelerator is not available. The "
        "following accelerator(s) is available and can be passed into `accelerator` argument "
        "of `Trainer`: ['cpu'].", 70))
    assert "is not\navailable" in log
    assert diagnose(from_text(log, "x.log")).findings[0].id == "torch-without-cuda"


def test_a_type_error_of_the_function_spawn_ran_is_not_its_arguments():
    # raised deep inside the function mp.spawn started (a model's forward): the script's own
    # error, not spawn's args
    log = ("-- Process 0 terminated with the following error:\nTraceback (most recent call "
           "last):\n  File \"/venv/lib/python3.10/site-packages/torch/multiprocessing/spawn.py\","
           " line 90, in _wrap\n    fn(i, *args)\n  File \"train.py\", line 40, in main\n"
           "    out = model(x, y, z)\n  File \"/venv/lib/python3.10/site-packages/torch/nn/"
           "modules/module.py\", line 1736, in _call_impl\n    return forward_call(*args, "
           "**kwargs)\nTypeError: Net.forward() takes 3 positional arguments but 4 were given\n")
    assert diagnose(from_text(log, "x.log")).findings[0].id != "spawn-args-not-tuple"
    # a Namespace passed whole (args=(opt)): the call itself refuses it
    whole = ("Traceback (most recent call last):\n  File \"/venv/lib/python3.10/site-packages/"
             "torch/multiprocessing/spawn.py\", line 90, in _wrap\n    fn(i, *args)\n"
             "TypeError: main() argument after * must be an iterable, not Namespace\n")
    assert diagnose(from_text(whole, "x.log")).findings[0].id == "spawn-args-not-tuple"


@pytest.mark.parametrize(("line", "rule_id"), [
    ("TypeError: __init__() got an unexpected keyword argument 'find_unused_parameters'",
     "torch-too-old-for-api"),
    ("TypeError: DistributedDataParallel.__init__() got an unexpected keyword argument "
     "'static_graph'", "torch-too-old-for-api"),
    # nn.DataParallel takes none of DDP's arguments, whatever the torch
    ("TypeError: DataParallel.__init__() got an unexpected keyword argument "
     "'find_unused_parameters'", "python-exception"),
    # torch 1.x-2.0's words for a root outside the subgroup
    ("RuntimeError: The global rank 3 is not part of the group <torch.distributed."
     "ProcessGroupNCCL object at 0x7f2c>", "collective-root-not-in-group"),
    # transformers' integrations name their package in their own ways
    ("RuntimeError: CometCallback requires comet-ml>=3.43.2 to be installed. Run `pip install "
     "comet-ml>=3.43.2`.", "package-not-installed"),
    ("RuntimeError: ClearMLCallback requires 'clearml' to be installed. Run `pip install "
     "clearml`.", "package-not-installed"),
    # Lightning 2.x's own check of a callback of the other package
    ("TypeError: You passed a `pytorch_lightning` object (ModelCheckpoint) to a "
     "`lightning.pytorch` Trainer. Please switch to a single import style.",
     "lightning-package-mix"),
])
def test_a_traceback_ending_in_another_wording_names_its_rule(line, rule_id):
    """DDP's later arguments on an older torch, and the wordings of other releases and
    integrations of rules whose CASES hold one."""
    result = diagnose(from_text(TRACE + line + "\n", "case.log"))
    assert result.findings[0].id == rule_id, result.findings


@pytest.mark.parametrize(("text", "rule_id"), [
    # NCCL < 2.12's socket.h wording of a failed connect
    ("node1:1234:1300 [0] include/socket.h:409 NCCL WARN Net : Connect to 172.17.0.2<36849> "
     "failed : No route to host\nnode1:1234:1300 [0] NCCL INFO bootstrap.cc:52 -> 2\n",
     "nccl-network"),
    # the proxy's connect to a peer, raised through torch and in the proxy service's words
    ("torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691, internal "
     "error - please report this issue to the NCCL developers, NCCL version 2.19.3\n"
     "ncclInternalError: Internal check failed.\nLast error:\nProxy Call to rank 1 failed "
     "(Connect)\n", "nccl-network"),
    ("node:922:1158 [3] proxy.cc:1519 NCCL WARN [Proxy Service 11] Failed to execute operation "
     "Connect from rank 11, retcode 2\n", "nccl-network"),
    # Horovod after another rank raised: a witness, not the cause
    ("horovod.common.exceptions.HorovodInternalError: Horovod has been shut down. This was "
     "caused by an exception on one of the ranks or an attempt to allreduce, allgather or "
     "broadcast a tensor after one of the ranks finished execution.\n", "peer-died-silently"),
    ("torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, invalid "
     "usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5\nncclInvalidUsage: This "
     "usually reflects invalid usage of NCCL library.\nLast error:\nNET/Socket : peer "
     "10.0.0.2<52211> message truncated : receiving 524288 bytes instead of 65536.\n",
     "nccl-message-truncated"),
    ("ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\n"
     "Error: network IB not found.\n", "nccl-net-not-found"),
    # environment messages of many threads, in the wordings those threads show
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.0+cu121)\n" + TRACE
     + "NotImplementedError: No operator found for `memory_efficient_attention_forward` with "
     "inputs:\n", "xformers-torch-mismatch"),
    ("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\n\nnvrtc "
     "compilation failed:\n", "no-kernel-image"),
    (TRACE + "    model.to('xpu')\nRuntimeError: PyTorch is not linked with support for xpu "
     "devices\n", "torch-without-xpu"),
    ("  File \"/usr/lib/python3/dist-packages/filelock/_unix.py\", line 39, in _acquire\n"
     "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nOSError: [Errno 38] Function not "
     "implemented\n", "filesystem-no-locks"),
    (TRACE + "RuntimeError: Cuda extensions are being compiled with a version of Cuda that does "
     "not match the version used to compile Pytorch binaries.  Pytorch binaries were compiled "
     "with Cuda 12.1.\n", "cuda-toolkit-mismatch"),
    ("(scheduler +17s) Warning: The following resource request cannot be scheduled right now: "
     "{'GPU': 1.0, 'CPU': 1.0}. This is likely due to all cluster resources being claimed by "
     "actors.\n" * 3, "ray-not-enough-gpus"),
    # framework messages of many threads, in the wordings those threads show
    (TRACE + "ImportError: Using `low_cpu_mem_usage=True` or a `device_map` requires "
     "Accelerate: `pip install 'accelerate>=0.26.0'`\n", "transformers-needs-accelerate"),
    (TRACE + "ImportError: DeepSpeed is not available => install it using `pip3 install "
     "deepspeed` or build it from source\n", "package-not-installed"),
    ("pytorch_lightning.utilities.exceptions.MisconfigurationException: "
     "ModelCheckpoint(monitor='val_loss') not found in the returned metrics: ['train_loss']. "
     "HINT: Did you call self.log('val_loss', tensor) in the LightningModule?\n",
     "lightning-monitor-key-missing"),
    (TRACE + "ValueError: Please launch distributed training with `llamafactory-cli` or "
     "`torchrun`.\n", "not-launched"),
    (TRACE + "    param_in_trace = self.__param_queue.popleft()\nIndexError: pop from an empty "
     "deque\n", "zero3-prefetch-trace"),
    (TRACE + "ValueError: `.to` is not supported for `4-bit` or `8-bit` bitsandbytes models. "
     "Please use the model as it is.\n", "offloaded-model-moved"),
    ("[rank7]:   File \"torch/distributed/checkpoint/state_dict_loader.py\", line 250, in "
     "local_step\n[rank7]:     assert metadata is not None\n[rank7]: AssertionError\n",
     "sharded-checkpoint-not-shared"),
    # launcher and scheduler messages of many threads
    ("pdsh@node-0: node-1: ssh exited with exit code 255\n", "deepspeed-hostfile-ssh"),
    ("subprocess.CalledProcessError: Command '['ssh worker-0 hostname -I']' returned non-zero "
     "exit status 255.\n", "deepspeed-hostfile-ssh"),
    (TRACE + "ValueError: The config file at /root/.cache/huggingface/accelerate/"
     "default_config.yaml had unknown keys (['downcast_bf16']), please try upgrading your "
     "`accelerate` version\n", "accelerate-launch-config-invalid"),
    (TRACE + "RuntimeError: could not connect to some hosts via ssh\n",
     "mpirun-cannot-reach-nodes"),
    ("The value of the MCA parameter \"plm_rsh_agent\" was set to a path\nthat could not be "
     "found:\n\n  plm_rsh_agent: ssh : rsh\n", "mpirun-cannot-reach-nodes"),
    # srun ending its step after a task failed: the task's failure, not a cancel from outside
    ("Traceback (most recent call last):\n  File \"run.py\", line 8, in <module>\n"
     "torch.distributed.elastic.rendezvous.api.RendezvousClosedError\n"
     "srun: error: node-1: task 1: Exited with exit code 1\nsrun: Terminating StepId=2194.1\n"
     "slurmstepd: error: *** STEP 2194.1 ON node-1 CANCELLED AT 2024-01-05T14:27:50 ***\n"
     "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting "
     "down workers\n", "rendezvous-closed"),
    # the DataLoader: the cause beats the worker it killed
    ("RuntimeError: DataLoader worker (pid 325) is killed by signal: Bus error. It is possible "
     "that dataloader's workers are out of shared memory.\n", "shm-exhausted"),
    ("RuntimeError: Too many open files. Communication with the workers is no longer possible. "
     "Please increase the limit using `ulimit -n` in the shell\n"
     "RuntimeError: DataLoader worker (pid(s) 4177) exited unexpectedly\n", "too-many-open-files"),
    # torch 2.15's default NCCL backend on a machine without a GPU (distributed_c10d.py)
    ("  File \"torch/distributed/distributed_c10d.py\", line 833, in _nccl2_device\n"
     "    raise RuntimeError(\"nccl2 requires at least one CUDA device\")\n"
     "RuntimeError: nccl2 requires at least one CUDA device\n", "torch-without-cuda"),
])
def test_a_message_names_its_cause(text, rule_id):
    """Messages that many public threads show, each with the cause its threads settle, first
    where other lines of the same failure follow."""
    assert diagnose(from_text(text, "case.log")).findings[0].id == rule_id


def test_a_step_srun_ended_is_no_cancel_from_outside():
    """srun stops the other tasks of its step when one fails (Terminating StepId): the step's
    CANCELLED line is srun's doing; without srun's line it is a cancel from outside."""
    cancelled = ("slurmstepd: error: *** STEP 1234.0 ON node042 CANCELLED AT "
                 "2024-03-01T10:00:00 ***\n")
    by_srun = ("srun: error: node042: task 0: Exited with exit code 1\n"
               "srun: launch/slurm: _step_signal: Terminating StepId=1234.0\n" + cancelled)
    assert diagnose(from_text(by_srun, "case.log")).findings[0].id == "nonzero-exit"
    assert diagnose(from_text(cancelled, "case.log")).findings[0].id == "slurm-cancelled"


@pytest.mark.parametrize(("text", "rule_id"), [
    # what the review of this round's rules found: a job script's nvidia-smi on a CPU node,
    # a step created after a wait, a project's own assert, MoE's shared experts, a Hub id
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
     "using gloo on cpu\nepoch 0 loss 0.31\nepoch 1 loss 0.22\nTraining complete.\n", None),
    ("srun: Job 4242 step creation temporarily disabled, retrying (Requested nodes are busy)\n"
     "srun: Job 4242 step creation still disabled, retrying (Requested nodes are busy)\n"
     "srun: Step created for job 4242\nepoch 0 loss 0.31\nslurmstepd: error: *** JOB 4242 ON "
     "node1 CANCELLED AT 2024-03-01T12:00:00 DUE TO TIME LIMIT ***\n", "slurm-time-limit"),
    ("  File \"/app/data/shards.py\", line 40, in load\n    assert metadata is not None\n"
     "AssertionError\n", "failure-shown"),
    ("RuntimeError: Error(s) in loading state_dict for Qwen2MoeForCausalLM:\n\tsize mismatch "
     "for model.layers.0.mlp.shared_expert.gate_proj.weight: copying a param with shape "
     "torch.Size([5632, 2048]) from checkpoint, the shape in current model is "
     "torch.Size([2816, 2048]).\n", "state-dict-keys"),
    ("2024-05-01 10:00:00 ncclInvalidUsage: This usually reflects invalid usage of NCCL "
     "library.\n2024-05-01 10:00:00 Last error:\n2024-05-01 10:00:00 Error: network AWS "
     "Libfabric not found.\n", "nccl-net-not-found"),
    ("OMP: Error #15: Initializing libiomp5.dylib, but found libomp.dylib already "
     "initialized.\nzsh: abort      python train.py\n", "openmp-duplicate-runtime"),
    ("print('If you see \"OMP: Error #15: Initializing libiomp5.so, but found libiomp5.so "
     "already initialized\", set KMP_DUPLICATE_LIB_OK')\nepoch 0 loss 0.31\nTraining "
     "complete.\n", None),
    (TRACE + "ValueError: The tokenizer's chat template is not training-compatible (missing "
     "prefix-preservation or `{% generation %}` markers) and patching is not supported.\n",
     "chat-template-not-trainable"),
    (TRACE + "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up "
     "environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. "
     "Setting the available devices to be zero.\n", "cuda-init-unknown-error"),
    (TRACE + "AttributeError: 'AcceleratedOptimizer' object has no attribute 'train'\n",
     "python-exception"),
    # NCCL and GPU messages of many threads: an application's own Xid, a hardware one
    ("NVRM: Xid (PCI:0000:3b:00): 31, pid=23911, name=python, Ch 00000008, intr 00000000. MMU "
     "Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f8d_2a000000.\n", "xid-application-fault"),
    ("NVRM: Xid (PCI:0000:3b:00): 79, pid=23911, GPU has fallen off the bus.\n",
     "gpu-hardware-error"),
    (TRACE + "pynvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found\n",
     "no-nvidia-driver-visible"),
    ("docker: Error response from daemon: OCI runtime create failed: error running hook #0: "
     "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.\n",
     "nvidia-driver-not-loaded"),
    ("ERROR 02-11 14:20:32 engine.py:389] RuntimeError: nrt_tensor_allocate status=4 "
     "message=\"Allocation Failure\"\n", "accelerator-oom"),
    ("(train pid=8464) EI0002: [PID: 13075] 2025-06-25-10:45:23.586.187 The wait execution of "
     "the Notify register times out. Reason: The Notify register has not received the Notify "
     "record from remote rank\n", "collective-timeout"),
    # torch's own messages of many threads, in the wordings those threads show
    (TRACE + "RuntimeError: Found dtype Double but expected Float\n", "dtype-mismatch"),
    (TRACE + "RuntimeError: \"nll_loss_forward_reduce_cuda_kernel_2d_index\" not implemented "
     "for 'Int'\n", "dtype-mismatch"),
    (TRACE + "RuntimeError: storage has wrong size: expected -3678369713323989701 got 256\n",
     "checkpoint-corrupt"),
    (TRACE + "RuntimeError: No rendezvous handler for env://\n", "torch-without-distributed"),
    (TRACE + "TypeError: can't pickle module objects\n", "spawn-pickle"),
    (TRACE + "RuntimeError: The total norm of order 2.0 for gradients from `parameters` is "
     "non-finite, so it cannot be clipped.\n", "nan-loss"),
    ("RuntimeError: Caught RuntimeError in DataLoader worker process 0.\nOriginal Traceback "
     "(most recent call last):\n  File \"/venv/lib/python3.10/site-packages/torch/utils/data/"
     "_utils/worker.py\", line 308, in _worker_loop\n    data = fetcher.fetch(index)\n"
     "RuntimeError: CUDA error: initialization error\n", "cuda-fork-after-init"),
    # the second review: a healthy teardown, NCCL's INFO probe, a CUDA op without half, a
    # rank's prefix on a NaN, a dotted type, a hardware Xid beside an application's
    ("node2:1234:1290 [3] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by "
     "remote peer node1<52402>\nTraining finished.\n", None),
    ("node1:3996:4012 [0] NCCL INFO misc/cudawrap.cc:188 Cuda failure 801 'operation not "
     "supported'\nnode1:3996:4012 [0] NCCL INFO comm 0x5 rank 0 nranks 2 - Init COMPLETE\n"
     "epoch 0 loss 0.31\nTraining finished.\n", None),
    (TRACE + "RuntimeError: \"linalg_eigh_cuda\" not implemented for 'Half'\n",
     "python-exception"),
    ("[rank0]: ValueError: Expected parameter loc (Tensor of shape (64, 2)) of distribution "
     "Normal(loc: torch.Size([64, 2])) to satisfy the constraint Real(), but found invalid "
     "values:\n[rank0]: tensor([[nan, nan],\n", "nan-loss"),
    (TRACE + "TypeError: can't pickle _thread.lock objects\n", "spawn-pickle"),
    ("NVRM: Xid (PCI:0000:3b:00): 31, pid=23911, name=python, Ch 00000008\nNVRM: Xid "
     "(PCI:0000:3b:00): 79, pid=23911, GPU has fallen off the bus.\n", "gpu-hardware-error"),
])
def test_the_rounds_review(text, rule_id):
    result = diagnose(from_text(text, "case.log"))
    if rule_id is None:
        assert result.status == "no_failure", [f.id for f in result.findings]
    else:
        assert result.findings[0].id == rule_id, [f.id for f in result.findings]


def _srun_log(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


TERMINATING = "srun: Terminating StepId=2194.1"
STEP_CANCEL = "slurmstepd: error: *** STEP 2194.1 ON node-1 CANCELLED AT 2024-01-05T14:27:50 ***"
JOB_CANCEL = "slurmstepd: error: *** JOB 2194 ON node-1 CANCELLED AT 2024-01-05T14:27:50 ***"
DEATH = ("WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting "
         "down workers")


@pytest.mark.parametrize(("lines", "rule_id"), [
    # srun's own end of the step after a task failed: neither a cancel nor a signal from outside
    (["srun: error: node-1: task 1: Exited with exit code 1", TERMINATING, STEP_CANCEL, DEATH],
     "nonzero-exit"),
    # the whole job cancelled, a cancel or a signal before srun's line: from outside
    (["srun: error: node-1: task 1: Exited with exit code 1", TERMINATING, JOB_CANCEL],
     "slurm-cancelled"),
    ([STEP_CANCEL, TERMINATING, "srun: error: node-1: task 1: Terminated"], "slurm-cancelled"),
    ([DEATH, TERMINATING, "srun: error: node-1: task 0: Exited with exit code 1"],
     "launcher-terminated"),
])
def test_srun_ended_its_step_only_when_its_line_comes_first(lines, rule_id):
    assert diagnose(from_text(_srun_log(*lines), "case.log")).findings[0].id == rule_id
