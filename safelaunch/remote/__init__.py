"""Remote runs: the VastAI API (``vast``); SSH and sync come next (issue 5)."""
