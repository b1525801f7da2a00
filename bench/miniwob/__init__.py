"""MiniWoB++ task-success benchmark of Stepwise, driven by the reference client."""
