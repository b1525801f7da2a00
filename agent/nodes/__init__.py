"""One async function per graph node; each returns a partial state update."""
