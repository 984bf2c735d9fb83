"""What people run: the `wargame` command, rendering, services."""
