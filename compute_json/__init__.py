"""compute_json stage of mainspring."""
