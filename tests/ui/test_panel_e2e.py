"""The side panel in a real browser: Playwright drives Debian's Chromium against a real
`jupyter lab` on a copy of fixtures/demo (tests/ui/panel_scenario.py, in its own process).
Screenshots of each step go to labextension/ui-tests/screenshots/ (git-ignored)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCENARIO = Path(__file__).resolve().parent / "panel_scenario.py"
STEPS = [
    "search_open_definition_references_and_call_tree",
    "a_call_tree_name_expands_and_its_link_opens",
    "a_reference_opens_the_editor_at_its_line",
    "the_shortcut_opens_the_panel_from_the_editor",
    "a_second_pick_after_a_tall_card",
    "paths_diagram",
    "the_panel_fits_its_width_takes_focus_and_speaks_aria",
    "trace_symbol_under_cursor_in_a_notebook_cell",
    "not_found_shows_clickable_suggestions",
    "the_context_menu_traces_the_right_clicked_word_not_the_caret",
    "hide_tests_knows_test_folders_and_holds_between_symbols",
    "a_search_while_indexing_asks_again_by_itself",
    "the_tutorials_are_beside_the_demo_and_outside_it_is_said",
    "the_path_diagram_fits_zooms_pans_and_follows_the_dark_theme",
    "a_docstring_keeps_its_paragraphs_code_and_lists",
    "long_lists_show_a_page_and_more_on_request",
    "an_unsaved_editor_is_said_and_save_and_trace_works",
    "ctrl_click_in_a_python_file_opens_the_definition",
    "alt_left_returns_and_f12_goes_again",
    "ctrl_click_in_a_notebook_cell_to_a_module_and_to_another_cell",
    "ctrl_click_in_typescript_and_cpp",
    "several_candidates_offer_a_chooser",
    "go_to_declaration_and_type_definition_from_the_menus",
    "shift_f12_shows_reference_rows",
    "the_hover_card_appears_and_disappears",
    "ctrl_click_on_json_dumps_opens_the_library_read_only",
    "click_to_revealed_latency_over_50_clicks",
    "the_hover_card_on_a_library_name_shows_its_docs",
    "an_unsaved_new_function_is_found_by_ctrl_click",
    "an_unsaved_notebook_cell_is_navigated",
]


@pytest.mark.skipif(not (shutil.which("chromium") or Path("/usr/bin/chromium").exists()),
                    reason="Debian's chromium is not installed (scripts/bootstrap.sh installs it)")
@pytest.mark.timeout(420)
def test_the_panel_in_a_real_browser():
    done = subprocess.run([sys.executable, str(SCENARIO)], capture_output=True, text=True, timeout=400)
    passed = [line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith("ok ")]
    assert done.returncode == 0 and passed == STEPS, (passed, done.stdout[-3000:], done.stderr[-6000:])
