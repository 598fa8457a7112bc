"""The minimal DDP test: ``rank`` is what each rank runs (``python -m safelaunch.minimal_test``,
through ``__main__``), ``driver`` runs it from the launcher (same topology, backend and
environment as the job, NCCL workarounds tried one by one) and turns the ranks' records into
a report.  Nothing is imported here: the ranks load only the rank side."""
