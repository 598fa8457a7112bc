"""torch 2.13's own checks (DataLoader and its collate, FSDP1 and FSDP2, tensor and pipeline
parallelism, torch.load, process groups and torchrun), cut from real runs or built on the
frames that raise them (the last two frames kept), each diagnosed as its rule; and the lines
with the same words that are something else or nothing."""

from __future__ import annotations

WORDINGS = [
    # torch/utils/data/distributed.py:129  DistributedSampler.__iter__ (torch 2.13.0: a
    # raise where older releases asserted; the dataset's length changed after the sampler)
    ("[rank1]:   File \"/venv/lib/python3.11/site-packages/torch/utils/data/distributed.py\", "
     "line 129, in __iter__\n[rank1]:     raise AssertionError(\n[rank1]: AssertionError: "
     "Number of indices (1030) does not match total_size (1028)\n",
     "dataset-smaller-than-world-size"),
    # torch/serialization.py find_class on Windows (a backslashed path), a dotted module
    ("  File \"C:\\venv\\lib\\site-packages\\torch\\serialization.py\", line 1439, in "
     "find_class\n    return super().find_class(mod_name, name)\nModuleNotFoundError: No "
     "module named 'mace.modules.embeddings'\n", "checkpoint-module-missing"),
    # torch/utils/data/_utils/collate.py:275  (torch 2.13.0)
    ("[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py\", line "
     "155, in collate\n[rank0]:    return collate_fn_map[elem_type](batch, "
     "collate_fn_map=collate_fn_map)\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py\", line "
     "275, in collate_tensor_fn\n[rank0]:    return torch.stack(batch, 0, out=out)\n"
     "[rank0]:RuntimeError: stack expects each tensor to be equal size, but got [3, 224, "
     "224] at entry 0 and [3, 224, 298] at entry 3\nE0612 10:14:03.512000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) "
     "local_rank: 0 (pid: 48291) of binary: /opt/conda/envs/train/bin/python\nTraceback "
     "(most recent call last):\n",
     "collate-unequal-sizes"),
    # torch/utils/data/_utils/collate.py collate_tensor_fn in a worker (torch 1.9 .. 2.x):
    # the shared buffer resized to len(batch) x the first sample's shape
    ("RuntimeError: Caught RuntimeError in DataLoader worker process 0.\nOriginal Traceback "
     "(most recent call last):\n  File \"/venv/lib/python3.9/site-packages/torch/utils/data/"
     "_utils/collate.py\", line 140, in default_collate\n    out = elem.new(storage)."
     "resize_(len(batch), *list(elem.size()))\nRuntimeError: Trying to resize storage that "
     "is not resizable\n",
     "collate-unequal-sizes"),
    # torch/utils/data/_utils/collate.py:208  (torch 2.13.0)
    ("  File \"/venv/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py\", "
     "line 401, in default_collate\n    return collate(batch, "
     "collate_fn_map=default_collate_fn_map)\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py\", line "
     "208, in collate\n    raise RuntimeError(\"each element in list of batch should be "
     "of equal size\")\nRuntimeError: each element in list of batch should be of equal "
     "size\n",
     "collate-unequal-sizes"),
    # torch/distributed/fsdp/_init_utils.py:1177  (torch 2.13.0)
    ("[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line "
     "1161, in _sync_module_params_and_buffers\n[rank0]:    "
     "_check_module_states_for_sync_module_states(module_states)\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line "
     "1176, in _check_module_states_for_sync_module_states\n[rank0]:    raise "
     "ValueError(\n[rank0]:ValueError: The module has CPU parameters or buffers when "
     "`sync_module_states=True`, which requires them to be on GPU. Please specify the "
     "`device_id` argument or move the module to GPU before passing it to FSDP.\nE0612 "
     "10:14:03.512000 48213 torch/distributed/elastic/multiprocessing/api.py:882] failed "
     "(exitcode: 1) local_rank: 0 (pid: 48291) of binary: "
     "/opt/conda/envs/train/bin/python\nTraceback (most recent call last):\n",
     "fsdp-module-on-cpu"),
    # torch/serialization.py:2210 (find_class in _load)  (torch 2.13.0)
    ("  File \"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 2221, in "
     "_load\n    result = unpickler.load()\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 2210, in "
     "find_class\n    return super().find_class(mod_name, name)\nAttributeError: Can't "
     "get attribute 'ResNetClassifier' on <module '__main__' from "
     "'/home/alice/proj/evaluate.py'>\n",
     "checkpoint-pickled-main-class"),
    # torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py:1035  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py\", "
     "line 308, in lazy_init\n[rank0]:     self._validate_no_meta_params()\n[rank0]:   "
     "File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py\", "
     "line 1034, in _validate_no_meta_params\n[rank0]:     raise RuntimeError(\n[rank0]: "
     "RuntimeError: FSDP parameters should be materialized from meta device before "
     "training, but the following were still on meta device: ['embed.weight', "
     "'head.weight']\n[rank0]: For example, call module.to_empty(device) to materialize "
     "to device and call module.reset_parameters() on each module to initialize values.\n"
     "E1127 17:23:28.399000 22265 torch/distributed/elastic/multiprocessing/api.py:1002] "
     "failed (exitcode: 1) local_rank: 0 (pid: 22268) of binary: "
     "/opt/conda/envs/train/bin/python\n",
     "fsdp-meta-params-not-materialized"),
    # torch/distributed/fsdp/_fully_shard/_fsdp_state.py:224  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_state.py\", "
     "line 210, in _lazy_init\n[rank0]:     self._validate_no_duplicate_params()\n"
     "[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_state.py\", "
     "line 223, in _validate_no_duplicate_params\n[rank0]:     raise ValueError(\n"
     "[rank0]: ValueError: Parameter 'head.weight' is shared with a parameter already "
     "managed by another FSDP group. For shared/tied parameters, use "
     "fully_shard([module_a, module_b]) to place them in the same FSDP group.\nE1127 "
     "17:23:45.852000 22491 torch/distributed/elastic/multiprocessing/api.py:1002] failed "
     "(exitcode: 1) local_rank: 0 (pid: 22512) of binary: "
     "/opt/conda/envs/train/bin/python\n",
     "fsdp-tied-params-split"),
    # torch/utils/data/dataloader.py:362  (torch 2.13.0)
    ("  File \"/home/alice/proj/dl.py\", line 12, in main\n    loader = DataLoader(ds, "
     "batch_size=2, sampler=DistributedSampler(DS(), num_replicas=2, rank=0))\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line 361, in "
     "__init__\n    raise ValueError(\nValueError: DataLoader with IterableDataset: "
     "expected unspecified sampler option, but got "
     "sampler=<torch.utils.data.distributed.DistributedSampler object at 0x7f37cdb18f90>\n",
     "iterable-dataset-sampler"),
    # torch/utils/data/dataloader.py:356  (torch 2.13.0)
    ("  File \"/home/alice/proj/dl.py\", line 16, in main\n    loader = "
     "DataLoader(Stream(), batch_size=2, shuffle=True)\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line 355, in "
     "__init__\n    raise ValueError(\nValueError: DataLoader with IterableDataset: "
     "expected unspecified shuffle option, but got shuffle=True\n",
     "iterable-dataset-sampler"),
    # torch/distributed/pipelining/microbatch.py:204  (torch 2.13.0)
    ("[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/pipelining/microbatch.py\", "
     "line 455, in split_args_kwargs_into_chunks\n[rank0]:    args_split_dict = "
     "_shard_dict_of_args(\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/pipelining/microbatch.py\", "
     "line 203, in _split_tensor\n[rank0]:    raise AssertionError(\n"
     "[rank0]:AssertionError: Tensor size 2 is smaller than num_chunks\nE0612 "
     "10:14:03.512000 48213 torch/distributed/elastic/multiprocessing/api.py:882] failed "
     "(exitcode: 1) local_rank: 0 (pid: 48291) of binary: "
     "/opt/conda/envs/train/bin/python\nTraceback (most recent call last):\n",
     "pipeline-batch-smaller-than-chunks"),
    # torch/multiprocessing/reductions.py:555 (C++ text from ATen MapAllocator)  (torch 2.13.0)
    ("[rank0]:  File \"/opt/conda/envs/train/lib/python3.11/multiprocessing/queues.py\", "
     "line 122, in get\n[rank0]:    return _ForkingPickler.loads(res)\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/multiprocessing/reductions.py\", line "
     "555, in rebuild_storage_filename\n[rank0]:    storage = "
     "torch.UntypedStorage._new_shared_filename_cpu(manager, handle, size)\n"
     "[rank0]:RuntimeError: unable to open shared memory object "
     "</torch_48291_2718281828_17> in read-write mode: No space left on device (28)\n"
     "E0612 10:14:03.512000 48213 torch/distributed/elastic/multiprocessing/api.py:882] "
     "failed (exitcode: 1) local_rank: 0 (pid: 48291) of binary: "
     "/opt/conda/envs/train/bin/python\nTraceback (most recent call last):\n",
     "shm-exhausted"),
    # torch/serialization.py:1886  (torch 2.13.0)
    ("  File \"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 1634, in "
     "load\n    return _legacy_load(\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 1886, in "
     "_legacy_load\n    magic_number = pickle_module.load(f, **pickle_load_args)\n"
     "EOFError: Ran out of input\n",
     "checkpoint-corrupt"),
    # torch/serialization.py:1888  (torch 2.13.0)
    ("  File \"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 1634, in "
     "load\n    return _legacy_load(\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 1888, in "
     "_legacy_load\n    raise RuntimeError(\"Invalid magic number; corrupt file?\")\n"
     "RuntimeError: Invalid magic number; corrupt file?\n",
     "checkpoint-corrupt"),
    # torch/distributed/distributed_c10d.py:1825  (torch 2.13.0)
    ("[rank4]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py\", line 83, "
     "in wrapper\n[rank4]:    return func(*args, **kwargs)\n[rank4]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", line "
     "1821, in init_process_group\n[rank4]:    raise ValueError(\"Please use a device_id "
     "with index.\")\n[rank4]:ValueError: device_id cuda:4 is out of range. Please use a "
     "device index less than the number of accelerators available: 4.\nE0612 "
     "10:14:03.512000 48213 torch/distributed/elastic/multiprocessing/api.py:882] failed "
     "(exitcode: 1) local_rank: 4 (pid: 48291) of binary: "
     "/opt/conda/envs/train/bin/python\nTraceback (most recent call last):\n",
     "no-cuda-device"),
    # torch/distributed/fsdp/_init_utils.py:391  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py\", "
     "line 427, in __init__\n[rank0]:     _init_device_handle(self, module, "
     "self._ignored_params, device_id)\n[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line "
     "390, in _init_device_handle\n[rank0]:     raise RuntimeError(\n[rank0]: "
     "RuntimeError: FSDP needs a non-CPU accelerator device, but no accelerator device is "
     "detected.\nE1127 17:24:01.252000 22605 "
     "torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
     "local_rank: 0 (pid: 22664) of binary: /opt/conda/envs/train/bin/python\n",
     "torch-without-cuda"),
    # torch/utils/data/_utils/collate.py:112 (default_collate_err_msg_format, raised at :243)  (torch 2.13.0)
    ("  File \"/venv/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py\", "
     "line 401, in default_collate\n    return collate(batch, "
     "collate_fn_map=default_collate_fn_map)\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py\", line "
     "243, in collate\n    raise "
     "TypeError(default_collate_err_msg_format.format(elem_type))\nTypeError: "
     "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
     "found <class 'PIL.Image.Image'>\n",
     "collate-unsupported-type"),
    # collate.py:243 (torch 2.13.0): __getitem__ returned None for a sample
    ("TypeError: default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
     "lists; found <class 'NoneType'>\n", "collate-unsupported-type"),
    # torch/utils/data/dataloader.py:298  (torch 2.13.0)
    ("[rank0]:  File \"/home/alice/proj/train.py\", line 97, in build_loaders\n[rank0]:   "
     " train_loader = DataLoader(train_ds, batch_size=args.batch_size, "
     "num_workers=args.workers, persistent_workers=True)\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line 298, in "
     "__init__\n[rank0]:    raise ValueError(\"persistent_workers option needs "
     "num_workers > 0\")\n[rank0]:ValueError: persistent_workers option needs num_workers "
     "> 0\nE0612 10:14:03.512000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) "
     "local_rank: 0 (pid: 48291) of binary: /opt/conda/envs/train/bin/python\nTraceback "
     "(most recent call last):\n",
     "dataloader-options-need-workers"),
    # torch/utils/data/dataloader.py:288  (torch 2.13.0)
    ("[rank0]:  File \"/home/alice/proj/train.py\", line 97, in build_loaders\n[rank0]:   "
     " train_loader = DataLoader(train_ds, batch_size=args.batch_size, "
     "num_workers=args.workers, persistent_workers=True)\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line 285, in "
     "__init__\n[rank0]:    raise ValueError(\"timeout option should be non-negative\")\n"
     "[rank0]:ValueError: prefetch_factor option could only be specified in "
     "multiprocessing.let num_workers > 0 to enable multiprocessing, otherwise set "
     "prefetch_factor to None.\nE0612 10:14:03.512000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) "
     "local_rank: 0 (pid: 48291) of binary: /opt/conda/envs/train/bin/python\nTraceback "
     "(most recent call last):\n",
     "dataloader-options-need-workers"),
    # torch/distributed/fsdp/_init_utils.py:834  (torch 2.13.0)
    ("[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line "
     "571, in _init_param_handle_from_module\n[rank0]:    "
     "_check_single_device_module(fully_sharded_module, state._ignored_params, "
     "device_id)\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line "
     "833, in _check_single_device_module\n[rank0]:    raise RuntimeError(\n"
     "[rank0]:RuntimeError: To support a module with both CPU and GPU params, please pass "
     "in device_id argument.\nE0612 10:14:03.512000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) "
     "local_rank: 0 (pid: 48291) of binary: /opt/conda/envs/train/bin/python\nTraceback "
     "(most recent call last):\n",
     "fsdp-module-on-cpu"),
    # torch/distributed/fsdp/_fully_shard/_fsdp_init.py:336  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_init.py\", "
     "line 359, in _get_managed_states\n[rank0]:     _verify_managed_param(name, param)\n"
     "[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_init.py\", "
     "line 335, in _verify_managed_param\n[rank0]:     raise ValueError(\n[rank0]: "
     "ValueError: fully_shard doesn't support scalar parameters. Change logit_scale to a "
     "1D tensor with numel equal to 1.\nE1127 17:23:53.047000 22571 "
     "torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
     "local_rank: 1 (pid: 22592) of binary: /opt/conda/envs/train/bin/python\n",
     "fsdp-scalar-param"),
    # torch/distributed/fsdp/_init_utils.py:557  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line "
     "618, in _init_param_handle_from_module\n[rank0]:     "
     "_verify_managed_params(fully_sharded_module, managed_params)\n[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py\", line "
     "556, in _verify_managed_params\n[rank0]:     raise ValueError(\n[rank0]: "
     "ValueError: FSDP doesn't support scalar parameters. Change logit_scale to a 1D "
     "tensor with numel equal to 1.\nE1127 17:24:08.366000 22807 "
     "torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
     "local_rank: 0 (pid: 22828) of binary: /opt/conda/envs/train/bin/python\n",
     "fsdp-scalar-param"),
    # torch/distributed/fsdp/_fully_shard/_fsdp_state.py:193  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_state.py\", "
     "line 140, in _root_pre_forward\n[rank0]:     self._lazy_init()\n[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_state.py\", "
     "line 192, in _lazy_init\n[rank0]:     raise RuntimeError(\n[rank0]: RuntimeError: "
     "FSDP state has already been lazily initialized for layers.0\n[rank0]: FSDP requires "
     "running forward through the root module first\nE1127 17:23:38.243000 22408 "
     "torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
     "local_rank: 0 (pid: 22421) of binary: /opt/conda/envs/train/bin/python\n",
     "fsdp-forward-not-through-root"),
    # torch/distributed/tensor/parallel/style.py:160  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/tensor/parallel/api.py\", "
     "line 86, in parallelize_module\n[rank0]:     return parallelize_plan._apply(module, "
     "device_mesh)\n[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/tensor/parallel/style.py\", "
     "line 159, in _apply\n[rank0]:     raise NotImplementedError(\n[rank0]: "
     "NotImplementedError: ColwiseParallel currently only support nn.Linear and "
     "nn.Embedding!\nE1127 17:24:18.456000 22898 "
     "torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
     "local_rank: 0 (pid: 22936) of binary: /opt/conda/envs/train/bin/python\n",
     "tp-plan-wrong-module-type"),
    # torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py:1051  (torch 2.13.0)
    ("[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py\", "
     "line 309, in lazy_init\n[rank0]:    self._validate_cpu_offload_params()\n[rank0]:  "
     "File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py\", "
     "line 1050, in _validate_cpu_offload_params\n[rank0]:    raise RuntimeError(\n"
     "[rank0]:RuntimeError: FSDP parameters should be materialized on CPU when enabling "
     "CPU offloading. For example, load a CPU state dict or call "
     "module.to_empty(device=\"cpu\"). Found following parameters on non-CPU device: "
     "[('model.embed_tokens.weight', device(type='cuda', index=0)), ('lm_head.weight', "
     "device(type='cuda', index=0))]\nE0612 10:14:03.512000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) "
     "local_rank: 0 (pid: 48291) of binary: /opt/conda/envs/train/bin/python\nTraceback "
     "(most recent call last):\n",
     "fsdp-offload-params-on-gpu"),
    # torch/distributed/elastic/rendezvous/utils.py:102  (torch 2.13.0)
    ("  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py\", "
     "line 135, in _create_tcp_store\n    host, port = "
     "parse_rendezvous_endpoint(params.endpoint, default_port=DEFAULT_PORT)\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/utils.py\", "
     "line 101, in parse_rendezvous_endpoint\n    raise ValueError(\nValueError: The port "
     "number of the rendezvous endpoint 'node01:' must be an integer between 0 and "
     "65536.\n",
     "master-port-invalid"),
    # torch/utils/data/dataloader.py:1450  (torch 2.13.0)
    ("[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line 1505, "
     "in _next_data\n[rank0]:    idx, data = self._get_data()\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line 1445, "
     "in _get_data\n[rank0]:    success, data = self._try_get_data(self._timeout)\n"
     "[rank0]:RuntimeError: DataLoader timed out after 120 seconds\nE0612 10:14:03.512000 "
     "48213 torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) "
     "local_rank: 0 (pid: 48291) of binary: /opt/conda/envs/train/bin/python\nTraceback "
     "(most recent call last):\n",
     "dataloader-timeout"),
    # torch/nn/parallel/distributed.py:2459  (torch 2.13.0)
    ("[rank1]:  File \"/venv/lib/python3.11/site-packages/torch/nn/modules/module.py\", "
     "line 1789, in _call_impl\n[rank1]:    return forward_call(*args, **kwargs)\n"
     "[rank1]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/nn/parallel/distributed.py\", line 1886, "
     "in forward\n[rank1]:    inputs, kwargs = self._pre_forward(*inputs, **kwargs)\n"
     "[rank1]:ValueError: SyncBatchNorm layers only work with GPU modules\nE0612 "
     "10:14:03.512000 48213 torch/distributed/elastic/multiprocessing/api.py:882] failed "
     "(exitcode: 1) local_rank: 1 (pid: 48291) of binary: "
     "/opt/conda/envs/train/bin/python\nTraceback (most recent call last):\n",
     "syncbn-without-ddp"),
    # torch/distributed/pipelining/schedules.py:763  (torch 2.13.0)
    ("[rank0]:   File \"/home/alice/proj/scen.py\", line 65, in main\n[rank0]:     if "
     "rank == 0: sched.step(torch.randn(4, 16))\n[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/pipelining/schedules.py\", "
     "line 762, in step\n[rank0]:     raise RuntimeError(\n[rank0]: RuntimeError: step() "
     "requires gradients to be enabled for backward computation; it should not be used "
     "under torch.no_grad() context. Please call eval() instead.\nE1127 17:24:34.833000 "
     "23070 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
     "local_rank: 0 (pid: 23073) of binary: /opt/conda/envs/train/bin/python\n",
     "pipeline-step-under-no-grad"),
    # torch/distributed/distributed_c10d.py:6014  (torch 2.13.0)
    ("[rank1]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", line "
     "5863, in new_group\n[rank1]:    return _new_group_with_tag(\n[rank1]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", line "
     "6013, in _new_group_with_tag\n[rank1]:    raise ValueError(\n[rank1]:ValueError: "
     "Rank 5 is out of range. Valid ranks are 0 to 3 (world_size=4)\nE0612 "
     "10:14:03.512000 48213 torch/distributed/elastic/multiprocessing/api.py:882] failed "
     "(exitcode: 1) local_rank: 1 (pid: 48291) of binary: "
     "/opt/conda/envs/train/bin/python\nTraceback (most recent call last):\n",
     "device-mesh-too-big"),
    # torch/utils/data/dataloader.py:381  (torch 2.13.0)
    ("  File \"/home/alice/proj/dl.py\", line 14, in main\n    loader = DataLoader(DS(), "
     "batch_size=4, batch_sampler=torch.utils.data.BatchSampler(range(10), 4, False))\n  "
     "File \"/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line "
     "380, in __init__\n    raise ValueError(\nValueError: batch_sampler option is "
     "mutually exclusive with batch_size, shuffle, sampler, and drop_last\n",
     "dataloader-batch-sampler-conflict"),
    # torch/distributed/elastic/agent/server/local_elastic_agent.py:555  (torch 2.13.0)
    ("W0612 09:58:11.201000 48213 torch/distributed/run.py:803] \nW0612 09:58:11.201000 "
     "48213 torch/distributed/run.py:803] *****************************************\n"
     "W0612 09:58:11.201000 48213 torch/distributed/run.py:803] Setting OMP_NUM_THREADS "
     "environment variable for each process to be 1 in default, to avoid your system "
     "being overloaded, please further tune the variable for optimal performance in your "
     "application as needed. \nW0612 09:58:11.201000 48213 torch/distributed/run.py:803] "
     "*****************************************\n[rank0]: step 1200 loss 2.314\n[rank1]: "
     "step 1200 loss 2.301\nW0612 10:09:03.441000 48213 "
     "torch/distributed/elastic/agent/server/local_elastic_agent.py:586] [default] Worker "
     "pid=48292 entered uninterruptible sleep (D-state); will mark UNHEALTHY if it "
     "remains for 300.0s.\nE0612 10:14:03.512000 48213 "
     "torch/distributed/elastic/agent/server/local_elastic_agent.py:554] [default] Worker "
     "pid=48292 stuck in uninterruptible sleep (D-state) for 300.1s (>= 300.0s); marking "
     "worker group UNHEALTHY and disabling restarts.\nW0612 10:14:03.513000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:1029] Sending process 48291 "
     "closing signal SIGTERM\nW0612 10:14:03.513000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:1029] Sending process 48292 "
     "closing signal SIGTERM\nE0612 10:14:33.600000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:1062] Process 48292 did not exit "
     "after SIGKILL within 30s; abandoning and continuing teardown. Worker may be in "
     "uninterruptible kernel sleep (e.g. wedged on GPU/NIC); host may need to be "
     "recycled.\n",
     "worker-stuck-in-kernel"),
    # torch/distributed/fsdp/_wrap_utils.py:109  (torch 2.13.0)
    ("[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py\", "
     "line 467, in __init__\n[rank0]:    _auto_wrap(\n[rank0]:  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_wrap_utils.py\", line "
     "108, in _check_nested_wrapping\n[rank0]:    raise ValueError(\n[rank0]:ValueError: "
     "FSDP auto wrapping requires modules to not already have FSDP applied but found "
     "model.layers.0 in\n[rank0]:FullyShardedDataParallel(\n[rank0]:  "
     "(_fsdp_wrapped_module): LlamaForCausalLM(\n",
     "fsdp-wrapped-twice"),
    # torch/distributed/fsdp/_fully_shard/_fsdp_init.py:83  (torch 2.13.0)
    ("[rank0]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fully_shard.py\", "
     "line 243, in fully_shard\n[rank0]:     _validate_mesh(mesh, dp_mesh_dims)\n[rank0]: "
     "  File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_init.py\", "
     "line 82, in _validate_mesh\n[rank0]:     raise AssertionError(\n[rank0]: "
     "AssertionError: Please init the 2D mesh for HSDP with mesh_dim_names specified\n"
     "E1127 17:28:19.763000 26760 torch/distributed/elastic/multiprocessing/api.py:1002] "
     "failed (exitcode: 1) local_rank: 0 (pid: 26763) of binary: "
     "/opt/conda/envs/train/bin/python\n",
     "hsdp-mesh-unnamed"),
    # torch/distributed/distributed_c10d.py:2072 (torch 2.13.0): init_process_group('ncll'),
    # run here
    ("[rank1]: Traceback (most recent call last):\n[rank1]:   File \"/home/bob/train.py\", "
     "line 12, in <module>\n[rank1]:     dist.init_process_group(\"ncll\")\n[rank1]:   File "
     "\"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", line "
     "2072, in _new_process_group_helper\n[rank1]:     raise AssertionError(f\"Unknown "
     "backend type {backend}\")\n[rank1]: AssertionError: Unknown backend type ncll\n",
     "backend-name-unknown"),
    # split_group(backend=...) parses a device:backend string (distributed_c10d.py:530)
    ("ValueError: Unknown backend 'ncll'. Specify a 'device:backend' string or use one of: "
     "['gloo', 'nccl', 'xccl']\n", "backend-name-unknown"),
    # torch.load of an empty file under weights_only=True (the default since torch 2.6)
    ("  File \"/venv/lib/python3.11/site-packages/torch/serialization.py\", line 1860, in "
     "_legacy_load\n    magic_number = pickle_module.load(f, **pickle_load_args)\n  File "
     "\"/venv/lib/python3.11/site-packages/torch/_weights_only_unpickler.py\", line 327, in "
     "load\n    raise EOFError\nEOFError\n", "checkpoint-corrupt"),
    # torchrun's teardown of a rank that would not die, after another rank's real error
    ("[rank1]: Traceback (most recent call last):\n[rank1]:   File \"/home/bob/train.py\", "
     "line 40, in <module>\n[rank1]:     y = batch['label_ids']\n[rank1]: KeyError: "
     "'label_ids'\nW0612 10:14:03.412000 48213 torch/distributed/elastic/multiprocessing/"
     "api.py:1010] Sending process 48290 closing signal SIGTERM\nE0612 10:15:03.413000 48213 "
     "torch/distributed/elastic/multiprocessing/api.py:906] Process 48290 did not exit after "
     "SIGKILL within 30s; abandoning and continuing teardown.\n", "python-exception"),
]

# the same words raised elsewhere, each its own rule
WORDINGS += [
    # a spawned child (a DataLoader worker, mp.spawn) that cannot find the class it unpickles
    ("Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n  File "
     "\"/usr/lib/python3.11/multiprocessing/spawn.py\", line 132, in _main\n    self = "
     "reduction.pickle.load(from_parent)\nAttributeError: Can't get attribute 'MyDataset' "
     "on <module '__main__' (built-in)>\n", "spawn-pickle"),
    ("RuntimeError: unable to open shared memory object </torch_4829_27182_17> in read-write "
     "mode: Too many open files (24)\n", "too-many-open-files"),
]

HEALTHY = [
    # a retry wrapper that logs DataLoader's timeout and goes on
    "2025-06-12 10:14:03,412 - WARNING - train.py:188 - DataLoader timed out after 600 "
    "seconds; recreating the iterator (attempt 1/3)\nstep 4100 loss 1.93\nTraining finished\n",
    # torch 2.13's D-state watchdog warns first; the run goes on
    "W0612 10:09:03.441000 48213 torch/distributed/elastic/agent/server/"
    "local_elastic_agent.py:586] [default] Worker pid=48292 entered uninterruptible sleep "
    "(D-state); will mark UNHEALTHY if it remains for 300.0s.\n[rank0]: step 1300 loss 2.1\n",
    "UserWarning: This DataLoader will create 64 worker processes in total. Our suggested max "
    "number of worker in current system is 16, which is smaller than what this DataLoader is "
    "going to create.\n",
]
