"""The `wargame` command: one subcommand per verb (`main`), each calling the registry and tools."""
