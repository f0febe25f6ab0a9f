"""sim stage of mainspring."""
