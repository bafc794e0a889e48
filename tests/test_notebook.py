"""The tour notebook (docs/notebooks/tour.ipynb) runs from top to bottom, so it never rots."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

from tests.patience import COMMAND_SECONDS

NOTEBOOK = Path(__file__).parents[1] / "docs" / "notebooks" / "tour.ipynb"


def test_the_tour_notebook_runs_and_shows_its_results(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOOPLAB_TOUR_DATA", str(tmp_path / "wh"))
    monkeypatch.setenv("SCOOPLAB_TOUR_HANDS", "20000")
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        notebook,
        timeout=COMMAND_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    outputs = [cell.get("outputs", []) for cell in notebook.cells if cell.cell_type == "code"]
    assert not [o for cell in outputs for o in cell if o.get("output_type") == "error"]
    shown = [o for cell in outputs for o in cell if o.get("output_type") == "execute_result"]
    assert any("vega" in o["data"].get("text/html", "") for o in shown)  # the Altair chart
    text = "".join(o["data"].get("text/plain", "") for o in shown)
    assert "(20000, 20000)" in text and "scoop_rate" in text
    assert (tmp_path / "wh" / "hands" / "variant=scarney" / "run=tour-must-use").is_dir()
