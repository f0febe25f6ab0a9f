"""memories stage of mainspring."""
