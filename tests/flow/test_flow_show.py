"""Pictures of a design (`design.show`, `mainspring show`): what each picture holds, and index.html opened in a
real browser (Debian's chromium driven by Selenium through Debian's chromium-driver, headless), where every picture
must render with a non-zero size; the screenshot is saved beside the page."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import mainspring as hl
from mainspring import apps
from mainspring.sim import require_tool

from conftest import ROOT

PICTURES = ("pipeline", "memory", "schedule")


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """gaussian_glb (host, GLB, memory tiles, registers) at its default size, drawn."""
    mod = apps.load("gaussian_glb")
    out, _ = apps.build(mod, *mod.DEFAULT_SIZE)
    design = hl.compile(out, name=mod.NAME)
    directory = tmp_path_factory.mktemp("show")
    index = design.show(directory)
    return design, directory, index


def test_show_writes_the_pictures_and_the_page(shown):
    design, directory, index = shown
    assert index == directory / "index.html"
    assert sorted(p.name for p in directory.iterdir()) == sorted(
        ["index.html"] + [f"gaussian_glb.{k}.svg" for k in PICTURES])
    pipeline = (directory / "gaussian_glb.pipeline.svg").read_text()
    for text in ("accelerator (hw_accelerate)", "global buffer (GLB)", "CGRA array", "stream, 1 lane",
                 "mem_tile: 131 words / minimum 131", "GLB tile buffer (input)", "blur_unnormalized", "input image"):
        assert text in pipeline, text
    memory = (directory / "gaussian_glb.memory.svg").read_text()
    for text in ("host port controller", "array port controller", "memory tile", "delay line",
                 "write port controller", "read port controller", "register ", "double&#45;buffered"):
        assert text in memory, text
    schedule = (directory / "gaussian_glb.schedule.svg").read_text()
    for op in design.plan.ops:
        assert op.op in schedule
    assert "first output word (cycle 136)" in schedule  # 132 unpipelined: + the sum's 4 added stages
    page = index.read_text()
    assert all(f'src="gaussian_glb.{k}.svg"' in page for k in PICTURES)
    assert "predicted_cycles" in page and "for (hw_output_global_wrapper.s0.yo, 0, 2)" in page  # report, loop nest


def test_show_command(tmp_path):
    run = subprocess.run([sys.executable, "-m", "mainspring.cli", "show", "gaussian", "--lanes", "2", "-o",
                          str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(tmp_path / "index.html")
    pipeline = (tmp_path / "gaussian.pipeline.svg").read_text()
    assert "stream, 2 lanes" in pipeline and "2 lanes" in pipeline
    assert "GLB" not in (tmp_path / "gaussian.memory.svg").read_text().replace("glb", "")  # no GLB level here


def _browser() -> tuple[str, str]:
    chromium = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
    except ImportError:
        selenium_ok = False
    else:
        selenium_ok = True
    require_tool(bool(chromium and driver and selenium_ok),
                 "Debian's chromium and chromium-driver with the selenium package (scripts/install.sh installs them)")
    assert chromium is not None and driver is not None
    return chromium, driver


def test_index_renders_every_picture_in_chromium(shown, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    chromium, driver = _browser()
    _, directory, index = shown
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                 f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    browser = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        browser.set_page_load_timeout(60)
        browser.get(index.as_uri())
        WebDriverWait(browser, 30).until(lambda b: b.execute_script(
            "return document.readyState === 'complete' && Array.from(document.images).every(i => i.complete)"))
        images = browser.execute_script(
            "return Array.from(document.images).map(i => { const r = i.getBoundingClientRect();"
            " return [i.getAttribute('src'), i.naturalWidth, i.naturalHeight, r.width, r.height]; })")
        shot = directory / "index.png"
        assert browser.save_screenshot(str(shot))
    finally:
        browser.quit()
    assert [src for src, *_ in images] == [f"gaussian_glb.{k}.svg" for k in PICTURES]
    for src, natural_w, natural_h, w, h in images:
        assert natural_w > 0 and natural_h > 0 and w > 0 and h > 0, (src, natural_w, natural_h, w, h)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
