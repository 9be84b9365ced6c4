// The live game page: follows the game's moves (server-sent events), and the replay
// slider. Every text is set with textContent: nothing the server sends becomes HTML.
"use strict";

(function () {
  const body = document.body;
  const base = body.dataset.base;
  const lang = body.dataset.lang;
  if (!base) {
    return;
  }
  const picture = document.getElementById("picture");
  const pictureLink = document.getElementById("picture-link");
  const waiting = document.getElementById("waiting");
  const log = document.getElementById("log");
  const standings = document.getElementById("standings");
  const slider = document.getElementById("turn");
  const shownTurn = document.getElementById("turn-shown");
  const step = document.getElementById("step");

  function stepTo(turn) {
    shownTurn.textContent = String(turn);
    step.src = base + "/turn/" + turn + ".png?lang=" + lang + "&v=" + body.dataset.mark;
  }

  function fill(list, lines) {
    list.replaceChildren(
      ...lines.map(function (line) {
        const item = document.createElement("li");
        item.textContent = line;
        return item;
      })
    );
  }

  async function refresh() {
    const answer = await fetch(base + "/state.json?lang=" + lang, { cache: "no-store" });
    if (!answer.ok) {
      return;
    }
    const state = await answer.json();
    const atEnd = Number(slider.value) === Number(slider.max);
    body.dataset.mark = state.mark;
    const address = base + "/picture/" + state.mark + ".png?lang=" + lang;
    picture.src = address;
    pictureLink.href = address;
    waiting.textContent = state.waiting;
    fill(log, state.log);
    fill(standings, state.standings.slice(1));
    slider.max = String(state.turns);
    if (atEnd || Number(slider.value) > state.turns) {
      slider.value = String(state.turns);
    }
    stepTo(Number(slider.value));
  }

  slider.addEventListener("input", function () {
    stepTo(Number(slider.value));
  });

  const events = new EventSource(base + "/events");
  events.onmessage = function (event) {
    if (event.data !== body.dataset.mark) {
      refresh();
    }
  };
})();
