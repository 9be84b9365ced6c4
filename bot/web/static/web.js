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

  function pictureAddress() {
    return base + "/picture/" + body.dataset.mark + ".png?lang=" + lang;
  }

  function stepTo(turn) {
    shownTurn.textContent = String(turn);
    // the turn in progress is the picture now: the address already shown above
    step.src =
      turn === Number(slider.max)
        ? pictureAddress()
        : base + "/turn/" + turn + ".png?lang=" + lang + "&v=" + body.dataset.mark;
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

  // the page's words, as state.json and each event of the stream give them
  function show(state) {
    const atEnd = Number(slider.value) === Number(slider.max);
    body.dataset.mark = state.mark;
    const address = pictureAddress();
    picture.src = address;
    if (pictureLink) {
      pictureLink.href = address;
    }
    waiting.textContent = state.waiting;
    fill(log, state.log);
    fill(standings, state.standings.slice(1));
    slider.max = String(state.turns);
    if (atEnd || Number(slider.value) > state.turns) {
      slider.value = String(state.turns);
    }
    stepTo(Number(slider.value));
    // the board's script (board.js) lays the new decision's targets
    document.dispatchEvent(new CustomEvent("montana:state", { detail: state }));
  }

  slider.addEventListener("input", function () {
    stepTo(Number(slider.value));
  });

  // each event carries the page's words at the game's mark (sent at once, then at each
  // move): nothing else to fetch but the new picture. A stream that fails for good (the
  // server restarted, a laptop woke up after a day) is opened again, and the words are
  // read again when the tab comes back into view.
  let events = null;
  let retry = 1000;
  function follow() {
    events = new EventSource(base + "/events?lang=" + lang);
    events.onopen = function () {
      retry = 1000;
    };
    events.onmessage = function (event) {
      const state = JSON.parse(event.data);
      if (state.mark !== body.dataset.mark) {
        show(state);
      }
    };
    events.onerror = function () {
      if (events.readyState === EventSource.CLOSED) {
        setTimeout(follow, retry);
        retry = Math.min(retry * 2, 60000);
      }
    };
  }
  follow();

  function refresh() {
    fetch(base + "/state.json?lang=" + lang, { cache: "no-store" })
      .then(function (answer) {
        return answer.ok ? answer.json() : null;
      })
      .then(function (state) {
        if (state && state.mark !== body.dataset.mark) {
          show(state);
        }
      })
      .catch(function () {});
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      refresh();
    }
  });
  // the board's script asks for the words now after a move of its own
  document.addEventListener("montana:refresh", refresh);
})();
