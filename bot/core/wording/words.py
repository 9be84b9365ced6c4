"""What happened and what comes next, in the words players use at the table: the one
name callers import (`from bot.core.wording import words`; `words.describe(...)`).

Pure functions of engine events and state, shared by the Discord layer and the
console. Notation appears only in `log_lines` (the move log is for power users).
Every name of a thing of the game (goods, worker colours, areas, board parts, actions,
pieces) comes from the one vocabulary, `render.vocabulary`, which the pictures use too.

The words live by what changes together:

- `phrasing`: the phrases sentences are built of (lists, counts of goods and workers);
- `events`: what happened, the events' sentences (`describe`);
- `states`: what comes next and where the game stands (prompt, waiting, status, results);
- `away`: away players and the heads-up;
- `ai_reasons`: the AI's reasons for a move;
- `rules_help`: the rules in short.
"""

from __future__ import annotations

from bot.core.wording.ai_reasons import (
    WORKERS_OK,
    reason_words,
    reasons_words,
)
from bot.core.wording.away import (
    away_line,
    away_note,
    back_line,
    heads_up_line,
    length_text,
    went_away_line,
)
from bot.core.wording.events import (
    CLEARED,
    FORCED_STEP_EVENT,
    IN_ADVANCE_EVENT,
    SILENT,
    SILENT_ACTIONS,
    describe,
    in_advance,
    note,
    with_silent_action,
)
from bot.core.wording.phrasing import (
    AREA_NAMES,
    EXTRA_BOX,
    FORGOTTEN_WORDS,
    GIVE_BACK,
    GOOD_NAMES,
    MOVE_THE_ARROW,
    ROW_REWARDS,
    UNDO_MARK,
    Mention,
    choices_worded,
    colours_text,
    count_list,
    either,
    forgotten_worded,
    gained_text,
    goods_text,
    is_english,
    join_words,
    listed,
    names_worded,
    one_after_another,
    plural,
    quoted,
    row_reward,
    series,
    workers_text,
)
from bot.core.wording.rules_help import (
    RULES_HELP,
    rules_help,
    rules_lines,
)
from bot.core.wording.states import (
    AREA_IN_REASON,
    COST_IN_REASON,
    COUNTED_GOOD,
    VERB_MESSAGES,
    allowed_now,
    cannot_pass_in_advance,
    engine_reason,
    log_lines,
    not_your_move,
    not_your_undo,
    pass_in_advance_said,
    prompt_line,
    results,
    seat_colour,
    seating,
    status,
    took_back,
    waiting_for,
)

__all__ = [
    "AREA_IN_REASON",
    "AREA_NAMES",
    "CLEARED",
    "COST_IN_REASON",
    "COUNTED_GOOD",
    "EXTRA_BOX",
    "FORCED_STEP_EVENT",
    "FORGOTTEN_WORDS",
    "GIVE_BACK",
    "GOOD_NAMES",
    "IN_ADVANCE_EVENT",
    "MOVE_THE_ARROW",
    "ROW_REWARDS",
    "RULES_HELP",
    "SILENT",
    "SILENT_ACTIONS",
    "UNDO_MARK",
    "VERB_MESSAGES",
    "WORKERS_OK",
    "Mention",
    "allowed_now",
    "away_line",
    "away_note",
    "back_line",
    "cannot_pass_in_advance",
    "choices_worded",
    "colours_text",
    "count_list",
    "describe",
    "either",
    "engine_reason",
    "forgotten_worded",
    "gained_text",
    "goods_text",
    "heads_up_line",
    "in_advance",
    "is_english",
    "join_words",
    "length_text",
    "listed",
    "log_lines",
    "names_worded",
    "not_your_move",
    "not_your_undo",
    "note",
    "one_after_another",
    "pass_in_advance_said",
    "plural",
    "prompt_line",
    "quoted",
    "reason_words",
    "reasons_words",
    "results",
    "row_reward",
    "rules_help",
    "rules_lines",
    "seat_colour",
    "seating",
    "series",
    "status",
    "took_back",
    "waiting_for",
    "went_away_line",
    "with_silent_action",
    "workers_text",
]
