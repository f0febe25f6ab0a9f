"""hwlower stage of mainspring."""
