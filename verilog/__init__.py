"""verilog stage of mainspring."""
