"""Remote runs: ``safelaunch remote`` over SSH (``ssh``, ``sync``, ``calls``, ``agent``,
``stream``, ``runner``, ``main``) and the VastAI API (``vast``).

Nothing here is imported by ``safelaunch run``; ``agent`` runs on the far side with only the
standard library.
"""
