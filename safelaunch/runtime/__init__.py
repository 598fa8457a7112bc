"""What safelaunch loads inside every rank: heartbeats, collective tracing, the stack-dump
signal (``rank``), the shared heartbeat record (``beatfile``) and the post-import hook that
patches torch when the script imports it (``imports``).  Never imports torch itself."""
