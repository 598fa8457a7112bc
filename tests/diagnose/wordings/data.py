"""The wordings of the data and checkpoint libraries (safetensors, torch's DataLoader and
samplers, torch.save/torch.load, datasets, webdataset, mosaicml-streaming, filelock, fsspec's
s3fs and adlfs, botocore, wandb, transformers' Trainer checkpoints) across their releases, each
diagnosed as its rule; and healthy lines that look like them, which must not be."""

from __future__ import annotations

TRACE = ("Traceback (most recent call last):\n"
         "  File \"/workspace/train.py\", line 88, in <module>\n"
         "    main()\n")
ST = "safetensors_rust.SafetensorError: Error while deserializing header: "

WORDINGS = [
    # --- safetensors-not-a-file ----------------------------------------------------------
    # safetensors 0.3.3 .. 0.5.3 (Rust SafeTensorError printed by its Debug name)
    (TRACE + ST + "HeaderTooLarge\n", "safetensors-not-a-file"),
    (TRACE + ST + "MetadataIncompleteBuffer\n", "safetensors-not-a-file"),
    (TRACE + ST + "InvalidHeaderLength\n", "safetensors-not-a-file"),
    (TRACE + ST + "InvalidHeaderStart\n", "safetensors-not-a-file"),
    (TRACE + ST + "InvalidHeaderDeserialization\n", "safetensors-not-a-file"),
    # safetensors 0.6.2 .. 0.8.0 (its Display text)
    (TRACE + ST + "header too large\n", "safetensors-not-a-file"),
    (TRACE + ST + "header too small\n", "safetensors-not-a-file"),
    (TRACE + ST + "invalid header length\n", "safetensors-not-a-file"),
    (TRACE + ST + "incomplete metadata, file not fully covered\n", "safetensors-not-a-file"),
    (TRACE + ST + "invalid JSON in header: EOF while parsing an object at line 1 column 52\n",
     "safetensors-not-a-file"),
    # safetensors 0.7.0 .. 0.8.0
    (TRACE + ST + "invalid start character in header, must be `{`\n", "safetensors-not-a-file"),
    # --- safetensors-shared-tensors ------------------------------------------------------
    # safetensors 0.3 .. 0.8 (torch.py _evaluate_tensors_for_save)
    (TRACE + "RuntimeError: \n            Some tensors share memory, this will lead to duplicate "
     "memory on disk and potential differences when loading them again: [{'lm_head.weight', "
     "'model.embed_tokens.weight'}].\n", "safetensors-shared-tensors"),
    # transformers 4.35 .. 4.5x modeling_utils.py save_pretrained (the model declares no tie)
    (TRACE + "  File \"/venv/lib/python3.10/site-packages/transformers/modeling_utils.py\", "
     "line 2546, in save_pretrained\n    raise RuntimeError(\nRuntimeError: The weights trying "
     "to be saved contained shared tensors [{'lm_head.weight', 'model.decoder.embed_tokens."
     "weight'}] that are mismatching the transformers base configuration. Try saving using "
     "`safe_serialization=False` or remove this tensor sharing.\n", "safetensors-shared-tensors"),
    # --- checkpoint-corrupt --------------------------------------------------------------
    # torch 2.13 libtorch_cpu (PyTorchStreamReader): a save cut short
    (TRACE + "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding "
     "central directory\n", "checkpoint-corrupt"),
    # transformers 4.30 .. 4.57 (modeling_utils.py load_state_dict): a Git LFS pointer
    (TRACE + "OSError: You seem to have cloned a repository without having git-lfs installed. "
     "Please install git-lfs and run `git lfs install` followed by `git lfs pull` in the "
     "folder you cloned.\n", "checkpoint-corrupt"),
    # torch 1.x .. 2.x (inline_container.cc PyTorchStreamReader::init): no 'version' record
    (TRACE + "  File \"/venv/lib/python3.8/site-packages/torch/serialization.py\", line 283, in "
     "__init__\n    super().__init__(torch._C.PyTorchFileReader(name_or_buffer))\nRuntimeError: "
     "Expected hasRecord(\"version\") to be true, but got false.  (Could this error message be "
     "improved?  If so, please report an enhancement request to PyTorch.)\n",
     "checkpoint-corrupt"),
    # torch's legacy reader (serialization.py _legacy_load) on a file cut short
    (TRACE + "  File \"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 1033, "
     "in _legacy_load\n    magic_number = pickle_module.load(f, **pickle_load_args)\n"
     "_pickle.UnpicklingError: pickle data was truncated\n", "checkpoint-corrupt"),
    # --- checkpoint-device-missing -------------------------------------------------------
    # torch 2.13 serialization.py _validate_device
    (TRACE + "RuntimeError: Attempting to deserialize object on CUDA device 3 but "
     "torch.cuda.device_count() is 1. Please use torch.load with map_location to map your "
     "storages to an existing device.\n", "checkpoint-device-missing"),
    # --- checkpoint-dir-missing ----------------------------------------------------------
    # torch 2.13 (inline_container.cc PyTorchStreamWriter::setup, libtorch_cpu strings)
    (TRACE + "RuntimeError: Parent directory /local/ckpt/run7/step_1000 does not exist.\n",
     "checkpoint-dir-missing"),
    ("[rank3]: RuntimeError: Parent directory /local/ckpt/run7 does not exist.\n",
     "checkpoint-dir-missing"),
    # --- trainer-checkpoint-not-found ----------------------------------------------------
    # transformers 4.30 .. 5.24 (trainer.py _load_from_checkpoint)
    (TRACE + "ValueError: Can't find a valid checkpoint at /scratch/out/checkpoint-1000\n",
     "trainer-checkpoint-not-found"),
    # transformers 4.30 .. 5.24 (trainer.py train, resume_from_checkpoint=True)
    (TRACE + "ValueError: No valid checkpoint found in output directory (/scratch/out)\n",
     "trainer-checkpoint-not-found"),
    # transformers 4.30 .. 5.24 (integrations/deepspeed.py deepspeed_load_checkpoint)
    (TRACE + "ValueError: [deepspeed] failed to resume from checkpoint /scratch/out/"
     "checkpoint-500\n", "trainer-checkpoint-not-found"),
    # --- sampler-generator-device --------------------------------------------------------
    # torch 2.13 libtorch_cpu (check_generator), torch.set_default_device('cuda')
    (TRACE + "RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'\n",
     "sampler-generator-device"),
    # the same check with torch.set_default_device('mps') / ('xpu')
    (TRACE + "RuntimeError: Expected a 'mps' device type for generator but found 'cpu'\n",
     "sampler-generator-device"),
    (TRACE + "RuntimeError: Expected a 'xpu' device type for generator but found 'cpu'\n",
     "sampler-generator-device"),
    # --- dataset-empty, sampler-shuffle --------------------------------------------------
    # torch 2.13 utils/data/sampler.py (RandomSampler)
    (TRACE + "ValueError: num_samples should be a positive integer value, but got "
     "num_samples=0\n", "dataset-empty"),
    # torch 2.13 utils/data/dataloader.py
    (TRACE + "ValueError: sampler option is mutually exclusive with shuffle\n",
     "sampler-shuffle"),
    # --- dataloader-worker-killed --------------------------------------------------------
    # torch 2.13 libtorch_python (DataLoader SIGCHLD handler)
    (TRACE + "RuntimeError: DataLoader worker (pid 48122) is killed by signal: Killed. \n",
     "dataloader-worker-killed"),
    # torch 2.13 dataloader.py _try_get_data
    (TRACE + "RuntimeError: DataLoader worker (pid(s) 48122, 48123) exited unexpectedly\n",
     "dataloader-worker-killed"),
    # --- datasets-map-worker-died --------------------------------------------------------
    # datasets 2.14.5 .. 4.0.0 (utils/py_utils.py iflatmap_unordered)
    (TRACE + "RuntimeError: One of the subprocesses has abruptly died during map operation."
     "To debug the error, disable multiprocessing.\n", "datasets-map-worker-died"),
    # --- datasets-fsspec-mismatch --------------------------------------------------------
    # datasets 2.14.5 (builder.py as_dataset) with fsspec >= 2023.10
    (TRACE + "NotImplementedError: Loading a dataset cached in a LocalFileSystem is not "
     "supported.\n", "datasets-fsspec-mismatch"),
    # datasets 2.14.5 (builder.py as_streaming_dataset), load_dataset(..., streaming=True)
    (TRACE + "NotImplementedError: Loading a streaming dataset cached in a LocalFileSystem is "
     "not supported yet.\n", "datasets-fsspec-mismatch"),
    # fsspec 2023.9+ (utils.py glob_translate) on the patterns of datasets < 2.14.6
    ("  File \"/opt/conda/lib/python3.9/site-packages/fsspec/utils.py\", line 734, in "
     "glob_translate\n    raise ValueError(\nValueError: Invalid pattern: '**' can only be an "
     "entire path component\n", "datasets-fsspec-mismatch"),
    # --- webdataset-nodesplitter, streaming-reused-local-dir -----------------------------
    # webdataset 0.2.86 and 1.0.2 (shardlists.py single_node_only)
    (TRACE + "ValueError: you need to add an explicit nodesplitter to your input pipeline for "
     "multi-node training\n", "webdataset-nodesplitter"),
    # mosaicml-streaming 0.7.6 .. 0.11.0 (base/shared/prefix.py)
    (TRACE + "ValueError: Reused local directory: ['/tmp/mds'] vs ['/tmp/mds']. Provide a "
     "different one. If using a unique local directory, try deleting the local directory\n",
     "streaming-reused-local-dir"),
    # mosaicml-streaming 0.4 .. 0.11 (base/shared/prefix.py get_shm_prefix): 5 and 6 digits
    (TRACE + "FileExistsError: [Errno 17] File exists: '/000002_locals'\n",
     "streaming-reused-local-dir"),
    (TRACE + "FileExistsError: [Errno 17] File exists: '/00000_epoch_shape'\n",
     "streaming-reused-local-dir"),
    # --- filesystem-no-locks -------------------------------------------------------------
    # filelock 3.12.2 .. 3.13.1 (_unix.py UnixFileLock._acquire on ENOSYS)
    (TRACE + "NotImplementedError: FileSystem does not appear to support flock; user "
     "SoftFileLock instead\n", "filesystem-no-locks"),
    # filelock 3.16.1 .. 3.20.0
    (TRACE + "NotImplementedError: FileSystem does not appear to support flock; use "
     "SoftFileLock instead\n", "filesystem-no-locks"),
    # --- cloud-credentials-missing -------------------------------------------------------
    # adlfs 2024.7.0 (spec.py do_connect), wrapped by its own except clause
    (TRACE + "ValueError: unable to connect to account for Must provide either a "
     "connection_string or account_name with credentials!!\n", "cloud-credentials-missing"),
    # google-auth 2.35 (_default.py)
    (TRACE + "google.auth.exceptions.DefaultCredentialsError: Your default credentials were "
     "not found. To set up Application Default Credentials, see "
     "https://cloud.google.com/docs/authentication/external/set-up-adc for more information.\n",
     "cloud-credentials-missing"),
    # --- s3-token-expired ----------------------------------------------------------------
    # botocore 1.29.165 .. 1.35.99 (exceptions.py UnauthorizedSSOTokenError)
    (TRACE + "botocore.exceptions.UnauthorizedSSOTokenError: The SSO session associated with "
     "this profile has expired or is otherwise invalid. To refresh this SSO session run aws "
     "sso login with the corresponding profile.\n", "s3-token-expired"),
    # botocore 1.29.165 .. 1.35.99 (tokens.py, TokenRetrievalError)
    (TRACE + "botocore.exceptions.TokenRetrievalError: Error when retrieving token from sso: "
     "Token has expired and refresh failed\n", "s3-token-expired"),
    # botocore 1.29.165 .. 1.35.99 (credentials.py RefreshableCredentials)
    (TRACE + "RuntimeError: Credentials were refreshed, but the refreshed credentials are "
     "still expired.\n", "s3-token-expired"),
    # --- object-store-throttled ----------------------------------------------------------
    # s3fs 2024.6.1 (errors.py translate_boto_error: SlowDown -> EBUSY)
    (TRACE + "OSError: [Errno 16] Please reduce your request rate.\n",
     "object-store-throttled"),
    # --- wandb-no-key, wandb-init-timeout ------------------------------------------------
    # wandb 0.13.11 .. 0.22.2 (sdk/wandb_login.py)
    (TRACE + "wandb.errors.UsageError: api_key not configured (no-tty). call "
     "wandb.login(key=[your_api_key])\n", "wandb-no-key"),
    # wandb (sdk/lib/preinit.py PreInitObject, the wandb.errors.errors module of later
    # releases): wandb.config before wandb.init, on a rank that never ran it
    (TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/wandb/sdk/lib/preinit.py\", line "
     "22, in __getattr__\n    raise wandb.Error(f\"You must call wandb.init() before "
     "{self._name}.{key}\")\nwandb.errors.errors.Error: You must call wandb.init() before "
     "wandb.config.update\n", "wandb-not-initialized-on-rank"),
    # PreInitObject.__getitem__ / __setitem__: wandb.summary['best'] = ...
    (TRACE + "wandb.errors.Error: You must call wandb.init() before wandb.summary['best_acc']\n",
     "wandb-not-initialized-on-rank"),
    # Python 3.8-3.13 multiprocessing/reduction.py recvfds, a log cut at the raising line
    # (the DataLoader's file-descriptor sharing past ulimit -n)
    ("  File \"/usr/lib/python3.8/multiprocessing/reduction.py\", line 164, in recvfds\n"
     "    raise RuntimeError('received %d items of ancdata' %\n", "too-many-open-files"),
    # wandb 0.19.11 .. 0.22.2 (sdk/wandb_init.py)
    (TRACE + "wandb.errors.errors.CommError: Run initialization has timed out after 90.0 sec. "
     "Please try increasing the timeout with the `init_timeout` setting: "
     "`wandb.init(settings=wandb.Settings(init_timeout=120))`.\n", "wandb-init-timeout"),
    # wandb 0.16.6
    (TRACE + "wandb.errors.CommError: Run initialization has timed out after 60.0 sec. \n"
     "Please refer to the documentation for additional information: "
     "https://docs.wandb.ai/guides/track/tracking-faq#initstarterror-error-communicating-with-"
     "wandb-process-\n", "wandb-init-timeout"),
    # wandb 0.13.11
    (TRACE + "wandb.errors.CommError: Error communicating with wandb process, exiting...\n"
     "For more info see: https://docs.wandb.ai/guides/track/tracking-faq#initstarterror-error-"
     "communicating-with-wandb-process-\n",
     "wandb-init-timeout"),
    # wandb 0.10 .. 0.12 (sdk/wandb_init.py raises UsageError after its init timeout)
    ("wandb: ERROR Error communicating with wandb process\n" + TRACE
     + "wandb.errors.UsageError: Error communicating with wandb process\n", "wandb-init-timeout"),
    # wandb 0.12.x (sdk/wandb_init.py) with a start method other than fork: its own advice
    ("Problem at: train.py 51 main\nTraceback (most recent call last):\n  File \"/opt/conda/lib/"
     "python3.8/site-packages/wandb/sdk/wandb_init.py\", line 653, in init\n    raise "
     "UsageError(error_message)\nwandb.errors.UsageError: Error communicating with wandb process"
     "\ntry: wandb.init(settings=wandb.Settings(start_method='fork'))\nor:  wandb.init(settings="
     "wandb.Settings(start_method='thread'))\nFor more info see: https://docs.wandb.ai/library/"
     "init#init-start-error\n", "wandb-init-timeout"),
]

HEALTHY = [
    "Loaded 291 tensors from model-00001-of-00004.safetensors (header 43 KB)\n",
    "safetensors: header too large check passed for shard 3\n",
    "Saving checkpoint to /scratch/out/checkpoint-1000; found a valid checkpoint at step 500\n",
    "Resuming from /scratch/out/checkpoint-1000 (valid checkpoint found)\n",
    "[deepspeed] resumed from checkpoint /scratch/out/checkpoint-500\n",
    "Created parent directory /local/ckpt/run7 (it did not exist)\n",
    "Map (num_proc=8): 100%|##########| 50000/50000 [00:12<00:00, 4012.33 examples/s]\n",
    "Loading a dataset cached in a LocalFileSystem: /root/.cache/huggingface/datasets/imdb\n",
    "filelock: using SoftFileLock for /nfs/cache/hub/.locks (flock not supported)\n",
    "wandb: Run initialization took 4.2 sec\n",
    "wandb: Currently logged in as: alice. Use `wandb login --relogin` to force relogin\n",
    "Refreshing temporary credentials from sso; the SSO session expires in 7h\n",
    "s3fs: 503 SlowDown, retrying PutObject (attempt 2/5)\n",
    "generator device: cuda (expected a 'cuda' device type for generator)\n",
]
