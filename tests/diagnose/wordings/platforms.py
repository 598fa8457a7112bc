"""The real wordings of schedulers, container runtimes, the C library's errno strings and
torch's DataLoader as they end training jobs (Slurm 20.11 to 25.x, the Kubernetes job
controller and the Kubeflow training operator, the NVIDIA container toolkit and CDI, Python
3.8 to 3.13, Rust's io::Error, NumPy 1.17 to 2.x, torch 2.x), each diagnosed as its rule; and
healthy lines that come near them."""

from __future__ import annotations

TRACE = "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
WORKER_TRACE = (
    "Traceback (most recent call last):\n"
    "  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py\", line "
    "1133, in _try_get_data\n    data = self._data_queue.get(timeout=timeout)\n")
FORK_TRACE = (
    "Traceback (most recent call last):\n"
    "  File \"train.py\", line 40, in <module>\n    for batch in loader:\n"
    "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 121, in start\n"
    "    self._popen = self._Popen(self)\n"
    "  File \"/usr/lib/python3.11/multiprocessing/popen_fork.py\", line 66, in _launch\n"
    "    self.pid = os.fork()\n")
HOOK = ("docker: Error response from daemon: failed to create task for container: failed to "
        "create shim task: OCI runtime create failed: runc create failed: unable to start "
        "container process: error during container init: error running hook #0: error running "
        "hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n")

WORDINGS = [
    # Slurm slurmstepd req.c: a heterogeneous step's id carries its component (+N) since
    # log_build_step_id_str (20.11); plain job and step ids as before
    ("slurmstepd: error: *** STEP 4242.0+1 ON gpu-node-07 CANCELLED AT 2024-03-02T10:11:12 "
     "***\n", "slurm-cancelled"),
    ("slurmstepd: error: *** STEP 4242.0 ON gpu-node-07 CANCELLED AT 2024-03-02T10:11:12 ***\n",
     "slurm-cancelled"),
    ("slurmstepd: error: *** JOB 4242 ON gpu-node-07 CANCELLED AT 2024-03-02T10:11:12 DUE TO "
     "TIME LIMIT ***\n", "slurm-time-limit"),
    ("slurmstepd: error: *** STEP 4242.0+1 ON gpu-node-07 CANCELLED AT 2024-03-02T10:11:12 DUE "
     "TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n", "slurm-node-failure"),
    # Kubernetes job controller (batch/v1 Job, reason DeadlineExceeded / BackoffLimitExceeded)
    ("  Warning  DeadlineExceeded  2m  job-controller  Job was active longer than specified "
     "deadline\n", "k8s-job-deadline"),
    ("  Warning  BackoffLimitExceeded  1m  job-controller  Job has reached the specified "
     "backoff limit\n", "k8s-job-backoff-limit"),
    # Kubeflow training operator (pkg/controller.v1/common/job.go, kubeflow/common before it):
    # the PyTorchJob's Failed condition and event
    ("  Normal  PyTorchJobFailed  30s  pytorchjob-controller  Job llama-ft has failed because "
     "it was active longer than specified deadline\n", "k8s-job-deadline"),
    ("    message: Job llama-ft has failed because it has reached the specified backoff limit\n"
     "    reason: PyTorchJobFailed\n", "k8s-job-backoff-limit"),
    # torch 2.x aten MapAllocator.cpp: fallocate of the shared-memory file fails (ENOSPC,
    # EAGAIN; "Success (0)" where the size check after it fails)
    (WORKER_TRACE + "RuntimeError: unable to allocate shared memory(shm) for file "
     "</torch_1140157_3143461634_13983>: No space left on device (28)\n", "shm-exhausted"),
    (WORKER_TRACE + "RuntimeError: unable to allocate shared memory(shm) for file "
     "</torch_1234_2671203098_0>: Resource temporarily unavailable (11)\n", "shm-exhausted"),
    # torch 2.13 DataLoader and its C++ worker signal handler (csrc/DataLoader.cpp)
    (WORKER_TRACE + "RuntimeError: DataLoader worker (pid(s) 5120, 5121) exited unexpectedly\n",
     "dataloader-worker-killed"),
    ("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
     "shared memory (shm).\n", "shm-exhausted"),
    (WORKER_TRACE + "RuntimeError: Too many open files. Communication with the workers is no "
     "longer possible. Please increase the limit using `ulimit -n` in the shell or change the "
     "sharing strategy by calling `torch.multiprocessing.set_sharing_strategy('file_system')` "
     "at the beginning of your code\n", "too-many-open-files"),
    # Rust's io::Error Display ("{message} (os error {code})"): EDQUOT, EROFS, ENOMEM
    (TRACE + "Exception: Disk quota exceeded (os error 122)\n", "disk-quota"),
    (TRACE + "OSError: Read-only file system (os error 30)\n", "read-only-path"),
    (TRACE + "safetensors_rust.SafetensorError: Error while deserializing header: Cannot "
     "allocate memory (os error 12)\n", "cpu-oom"),
    # Python's errno strings (Python 3.8-3.13)
    (TRACE + "OSError: [Errno 122] Disk quota exceeded: '/home/u/.cache/huggingface'\n",
     "disk-quota"),
    (TRACE + "OSError: [Errno 30] Read-only file system: '/models/out'\n", "read-only-path"),
    (TRACE + "OSError: [Errno 12] Cannot allocate memory\n", "cpu-oom"),
    # NumPy 1.17-1.26 (numpy.core) and 2.x (numpy._core) _ArrayMemoryError
    (TRACE + "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 3.00 GiB for an "
     "array with shape (100000, 8192) and data type float32\n", "cpu-oom"),
    (TRACE + "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 71.1 PiB for an "
     "array with shape (100000000, 100000000) and data type float64\n", "cpu-oom"),
    # Python's MemoryError, bare and with a message
    (TRACE + "MemoryError\n", "cpu-oom"),
    (TRACE + "[rank3]: MemoryError: Unable to allocate output buffer.\n", "cpu-oom"),
    # EAGAIN on thread creation: libstdc++'s terminate handler for std::thread, LLVM/Intel
    # OpenMP (kmp_i18n CantRegisterNewThread), and os.fork in multiprocessing's Popen
    ("terminate called after throwing an instance of 'std::system_error'\n  what():  Resource "
     "temporarily unavailable\nAborted (core dumped)\n", "thread-limit"),
    ("OMP: Error #34: System unable to allocate necessary resources for OMP thread:\n"
     "OMP: System error #11: Resource temporarily unavailable\n"
     "OMP: Hint Try decreasing the value of OMP_NUM_THREADS.\n", "thread-limit"),
    (FORK_TRACE + "BlockingIOError: [Errno 11] Resource temporarily unavailable\n",
     "thread-limit"),
    ("OpenBLAS blas_thread_init: pthread_create failed for thread 31 of 64: Resource "
     "temporarily unavailable\nOpenBLAS blas_thread_init: RLIMIT_NPROC 4096 current, 4096 max\n",
     "thread-limit"),
    # bash 4-5 (jobs.c make_child): fork retried, then given up, at the process limit
    ("bash: fork: retry: Resource temporarily unavailable\nbash: fork: retry: Resource "
     "temporarily unavailable\nbash: fork: Resource temporarily unavailable\n", "thread-limit"),
    # Python 2.7 subprocess.py _execute_child: EAGAIN from os.fork raised as OSError
    ("  File \"/opt/python/lib/python2.7/subprocess.py\", line 1231, in _execute_child\n"
     "    self.pid = os.fork()\nOSError: [Errno 11] Resource temporarily unavailable\n",
     "thread-limit"),
    # rayon-core 1.7 registry.rs (tokenizers 0.9-0.10's thread pool): the spawn's EAGAIN
    ("thread '<unnamed>' panicked at 'The global thread pool has not been initialized.: "
     "ThreadPoolBuildError { kind: IOError(Os { code: 11, kind: WouldBlock, message: "
     "\"Resource temporarily unavailable\" }) }', /github/home/.cargo/registry/src/github.com-"
     "1ecc6299db9ec823/rayon-core-1.7.0/src/registry.rs:168:5\n", "thread-limit"),
    # container-device-interface's cache.go, through Podman, Docker 25+ and the toolkit's
    # cdi mode (kind runtime.nvidia.com/gpu)
    ("Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n",
     "container-toolkit-missing"),
    ("docker: Error response from daemon: failed to create task for container: failed to "
     "create shim task: OCI runtime create failed: could not apply required modification to "
     "OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable "
     "CDI devices runtime.nvidia.com/gpu=all: unknown.\n", "container-toolkit-missing"),
    # libnvidia-container: a --gpus device (index or UUID) the host does not have
    (HOOK + "nvidia-container-cli: device error: 3: unknown device: unknown.\n",
     "no-cuda-device"),
    (HOOK + "nvidia-container-cli: device error: GPU-8f3a1c2e-1111-2222-3333-444455556666: "
     "unknown device: unknown.\n", "no-cuda-device"),
    (HOOK + "nvidia-container-cli: initialization error: nvml error: driver not loaded: "
     "unknown.\n", "nvidia-driver-not-loaded"),
    # the NGC images' entrypoint (nvidia_entrypoint.sh): its banner alone, and with cuInit's
    # 803 beneath it (the driver's mismatch is the banner's consequence here)
    ("ERROR: This container was built for NVIDIA Driver Release 530.30 or later, but\n"
     "       version 470.182.03 was detected and compatibility mode is UNAVAILABLE.\n",
     "container-cuda-too-new"),
    ("ERROR: This container was built for NVIDIA Driver Release 530.30 or later, but\n"
     "       version 470.182.03 was detected and compatibility mode is UNAVAILABLE.\n\n"
     "       [[System has unsupported display driver / cuda driver combination "
     "(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) cuInit()=803]]\n", "container-cuda-too-new"),
    ("ERROR: This container was built for NVIDIA Driver Release 530.30 or later, but\n"
     "       version 470.182.03 was detected and compatibility mode is UNAVAILABLE.\n\n"
     "       [[CUDA Driver UNAVAILABLE (cuInit(0) returned 804)]]\n\nroot@abc:/workspace# "
     "python train.py\nTraceback (most recent call last):\n  File \"train.py\", line 9, in "
     "<module>\n    model.cuda()\nRuntimeError: Found no NVIDIA driver on your system. Please "
     "check that you have an NVIDIA GPU and installed a driver\n", "container-cuda-too-new"),
    # libnvidia-container: the ldcache step with Debian's ldconfig path missing
    (HOOK + "nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such "
     "file or directory: unknown.\n", "container-toolkit-ldconfig-path"),
    # libnvidia-container's legacy hook on cgroup v2, its other failure
    (HOOK + "nvidia-container-cli: mount error: failed to add device rules: unable to generate "
     "new device filter program from existing programs: unable to create new device filters "
     "program: load program: invalid argument: unknown\n", "container-toolkit-cgroup-device-rules"),
    # newer libnvidia-container: "driver rpc error"
    ("nvidia-container-cli: initialization error: driver rpc error: failed to process request: "
     "unknown.\n", "container-toolkit-driver-error"),
    # AWS ParallelCluster's Slurm resume (CreateFleet)
    ("2024-03-01 10:00:00,000 - [slurm_plugin.instance_manager:_launch_instances] - ERROR - "
     "Failed to launch instances due to limited EC2 capacity: Error in CreateFleet request "
     "(a1b2c3): InsufficientInstanceCapacity - We currently do not have sufficient "
     "p5.48xlarge capacity in the Availability Zone you requested (us-east-2b).\n",
     "cloud-no-capacity"),
    # the Kubeflow training operator's condition (kubectl get pytorchjob -o yaml)
    ("  - lastTransitionTime: \"2024-05-02T10:11:12Z\"\n    message: PyTorchJob "
     "default/bert-ddp is failed because 2 Worker replica(s) failed.\n    reason: "
     "PyTorchJobFailed\n    status: \"True\"\n    type: Failed\n", "kubeflow-replica-failed"),
    # the kubelet's admission when the device plugin lost a GPU
    ("  Warning  UnexpectedAdmissionError  3m  kubelet  Allocate failed due to device plugin "
     "GetPreferredAllocation rpc failed with err: rpc error: code = Unknown desc = nvml: GPU "
     "is lost, which is unexpected\n", "k8s-gpu-allocate-failed"),
    # MPI launchers and runtimes of HPC systems: Intel MPI's Hydra (hydra_spawn.c HYD_spawn)
    # and MPICH 4's (lib/utils/launch.c HYDU_create_process)
    ("[proxy:0:0@node01] HYD_spawn (../../../../../src/pm/i_hydra/libhydra/spawn/intel/"
     "hydra_spawn.c:145): execvp error on file python (No such file or directory)\n",
     "mpi-hydra-program-not-found"),
    ("[proxy:0@node01] HYDU_create_process (lib/utils/launch.c:73): execvp error on file "
     "params_C2A.py (No such file or directory)\n", "mpi-hydra-program-not-found"),
    ("[proxy:0:0@node01] HYDU_create_process (utils/launch/launch.c:74): execvp error on file "
     "train.py (Permission denied)\n", "mpi-hydra-program-not-found"),
    # MIOpen src/sqlite_db.cpp: locking, I/O and the in-memory VFS of read-only databases
    ("MIOpen Error: /MIOpen/src/sqlite_db.cpp:220: Internal error while accessing SQLite "
     "database: locking protocol\nRuntimeError: miopenStatusInternalError\n",
     "miopen-user-db-unwritable"),
    ("MIOpen Error: /MIOpen/src/sqlite_db.cpp:220: Internal error while accessing SQLite "
     "database: disk I/O error\nRuntimeError: miopenStatusInternalError\n",
     "miopen-user-db-unwritable"),
    ("MIOpen Error: /MIOpen/src/sqlite_db.cpp:109: open memvfs: unable to open database file\n"
     "RuntimeError: miopenStatusInternalError\n", "miopen-user-db-unwritable"),
    # Open MPI 4.0 / 4.1 PMIx glue (pmix3x_client.c, ext3x_client.c)
    ("[host:4242] OPAL ERROR: Unreachable in file ext3x_client.c at line 112\n*** An error "
     "occurred in MPI_Init_thread\n", "openmpi-pmix-not-initialized"),
    # MPICH ch4:ofi find_provider and MPIDI_OFI_init_local (ofi_init.c)
    ("Abort(1091471) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI error, "
     "error stack:\nMPIR_Init_thread(153)........:\nMPID_Init(590)...............:\n"
     "MPIDI_OFI_mpi_init_hook(685):\nfind_provider(170).........: OFI fi_getinfo() failure\n",
     "mpi-ofi-init-failed"),
    ("Abort(1091215) on node 0: Fatal error in PMPI_Init: Other MPI error, error stack:\n"
     "MPIDI_OFI_init_local(580): OFI fi_fabric failed (ofi_init.c:580:MPIDI_OFI_init_local:"
     "Invalid argument)\n", "mpi-ofi-init-failed"),
    # Lightning 1.5 lsf_environment.py _read_hosts
    ("ValueError: Cannot parse hosts from LSB_HOSTS environment variable. Expected format: "
     "\"batch <rank_0_host> ...\"\n", "lightning-lsf-hosts-missing"),
]

HEALTHY = [
    "Job llama-ft is running; activeDeadlineSeconds: 86400, backoffLimit: 3\n",
    "    message: Job llama-ft is created.\n    reason: PyTorchJobCreated\n",
    "slurmstepd: info: *** STEP 4242.0+1 ON gpu-node-07 started ***\n",
    "Using shared memory for DataLoader workers; allocate shm (16 GiB) with --shm-size\n",
    "Disk quota: 120 GiB used of 500 GiB (os quota check ok)\n",
    "Mounted /models as a read-only file system; writing outputs to /scratch\n",
    "Allocated 3.00 GiB for an array with shape (100000, 8192)\n",
    "MemoryErrorHandler registered; host memory 512 GiB\n",
    "OMP: Info #276: omp_set_nested routine deprecated, please use omp_set_max_active_levels\n",
    "Resource temporarily unavailable, retrying lock on /data/.lock (attempt 1)\n",
    "Generating CDI specification for nvidia.com/gpu=all\n",
    "nvidia-container-cli: requirement check ok; devices: 0,1,2,3\n",
    "NOTE: Legacy NVIDIA Driver detected.  Compatibility mode ENABLED.\n",
    "NOTE: CUDA Forward Compatibility mode ENABLED.\n  Using CUDA 12.4 driver version 550.54.15 "
    "with kernel driver version 535.161.08.\n",
    "    message: PyTorchJob default/bert-ddp is successfully completed.\n    reason: "
    "PyTorchJobSucceeded\n",
    "Requested 2 x p4d.24xlarge; EC2 capacity available in us-east-1b\n",
]
