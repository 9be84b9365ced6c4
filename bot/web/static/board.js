// Playing on the board (issue 38.2, 38.6, 38.7): the decision's choices laid over the
// picture as buttons (targets.json: where each region lies; choices.json: what the
// signed-in reader may choose there), a choice with parts in a small panel, the moves
// posted with the session's CSRF token, and the board's zoom and pan (pinch, drag, the
// wheel with Ctrl, the zoom buttons). Every word comes from the server (the page's
// #board-words, the JSON's labels) and is set with textContent: nothing becomes HTML.
"use strict";

(function () {
  const body = document.body;
  const base = body.dataset.base;
  const lang = body.dataset.lang;
  const words = document.getElementById("board-words");
  if (!base || !words) {
    return;
  }
  const said = words.dataset;
  const board = document.getElementById("board");
  const stage = document.getElementById("stage");
  const picture = document.getElementById("picture");
  const layer = document.getElementById("targets");
  const signin = document.getElementById("signin");
  const signedAs = document.getElementById("signed-as");
  const signout = document.getElementById("signout");
  const turnNote = document.getElementById("turn-note");
  const beside = document.getElementById("beside");
  const prompt = document.getElementById("prompt");
  const besideChoices = document.getElementById("beside-choices");
  const panel = document.getElementById("panel");
  const panelHeading = document.getElementById("panel-heading");
  const panelChoices = document.getElementById("panel-choices");
  const panelCancel = document.getElementById("panel-cancel");
  const answer = document.getElementById("said");
  const title = document.title;
  const TOUCH = 44; // the smallest target a finger taps surely, in CSS pixels
  const MAX_SCALE = 8;

  let csrf = null;
  let shown = null; // the mark whose choices are laid
  let sending = false;
  let lastFocus = null;
  layer.setAttribute("aria-label", said.board);
  panelCancel.textContent = said.cancel;

  // ---------------------------------------------------------------- who is signed in

  function signedOut() {
    csrf = null;
    signin.hidden = false;
    signedAs.hidden = true;
    signout.hidden = true;
  }

  function account() {
    return fetch("/signin/me.json", { cache: "no-store", credentials: "same-origin" })
      .then(function (reply) {
        if (!reply.ok) {
          signedOut();
          return;
        }
        return reply.json().then(function (me) {
          csrf = me.csrf;
          signin.hidden = true;
          signedAs.textContent = said.signedAs.replace("{name}", me.user.name);
          signedAs.hidden = false;
          signout.hidden = false;
        });
      })
      .catch(signedOut);
  }

  signout.addEventListener("click", function () {
    fetch("/signout", { method: "POST", headers: { "X-CSRF-Token": csrf || "" } }).then(
      function () {
        signedOut();
        shown = null;
        load(body.dataset.mark);
      }
    );
  });

  // ---------------------------------------------------------------- zoom and pan

  const view = { scale: 1, x: 0, y: 0 };

  function clamp() {
    const width = board.clientWidth;
    const height = board.clientHeight;
    view.scale = Math.min(MAX_SCALE, Math.max(1, view.scale));
    view.x = Math.min(0, Math.max(width - width * view.scale, view.x));
    view.y = Math.min(0, Math.max(height - height * view.scale, view.y));
  }

  function apply() {
    clamp();
    stage.style.transform =
      "translate(" + view.x + "px, " + view.y + "px) scale(" + view.scale + ")";
    board.classList.toggle("zoomed", view.scale > 1);
  }

  // zoom by `factor` keeping the board's point (px, py) where it is
  function zoomAt(factor, px, py) {
    const scale = Math.min(MAX_SCALE, Math.max(1, view.scale * factor));
    const kept = scale / view.scale;
    view.x = px - (px - view.x) * kept;
    view.y = py - (py - view.y) * kept;
    view.scale = scale;
    apply();
  }

  // the board's point (in the board's own pixels, unzoomed) shown at the centre
  function centreOn(x, y) {
    view.x = board.clientWidth / 2 - x * view.scale;
    view.y = board.clientHeight / 2 - y * view.scale;
    apply();
  }

  document.getElementById("zoom-in").addEventListener("click", function () {
    zoomAt(1.5, board.clientWidth / 2, board.clientHeight / 2);
  });
  document.getElementById("zoom-out").addEventListener("click", function () {
    zoomAt(1 / 1.5, board.clientWidth / 2, board.clientHeight / 2);
  });
  document.getElementById("zoom-fit").addEventListener("click", function () {
    view.scale = 1;
    apply();
  });
  board.addEventListener(
    "wheel",
    function (event) {
      if (!event.ctrlKey) {
        return; // the page scrolls; Ctrl+wheel (and a trackpad's pinch) zooms
      }
      event.preventDefault();
      const box = board.getBoundingClientRect();
      zoomAt(Math.exp(-event.deltaY / 300), event.clientX - box.left, event.clientY - box.top);
    },
    { passive: false }
  );

  // fingers on the board: one drags (once zoomed), two pinch; a tap stays a tap
  const pointers = new Map();
  let gesture = null;
  let dragged = false;

  function spread() {
    const [a, b] = [...pointers.values()];
    return {
      distance: Math.hypot(a.x - b.x, a.y - b.y),
      x: (a.x + b.x) / 2,
      y: (a.y + b.y) / 2,
    };
  }

  board.addEventListener("pointerdown", function (event) {
    const box = board.getBoundingClientRect();
    pointers.set(event.pointerId, { x: event.clientX - box.left, y: event.clientY - box.top });
    dragged = false;
    gesture = pointers.size === 2 ? spread() : { x: event.clientX, y: event.clientY };
  });
  board.addEventListener("pointermove", function (event) {
    if (!pointers.has(event.pointerId) || gesture === null) {
      return;
    }
    const box = board.getBoundingClientRect();
    pointers.set(event.pointerId, { x: event.clientX - box.left, y: event.clientY - box.top });
    if (pointers.size === 2) {
      const now = spread();
      if (gesture.distance > 0) {
        zoomAt(now.distance / gesture.distance, now.x, now.y);
      }
      view.x += now.x - gesture.x;
      view.y += now.y - gesture.y;
      apply();
      gesture = now;
      dragged = true;
    } else if (view.scale > 1) {
      const dx = event.clientX - gesture.x;
      const dy = event.clientY - gesture.y;
      if (dragged || Math.hypot(dx, dy) > 8) {
        dragged = true;
        view.x += dx;
        view.y += dy;
        gesture = { x: event.clientX, y: event.clientY };
        apply();
      }
    }
  });
  function lift(event) {
    pointers.delete(event.pointerId);
    gesture = null;
    if (pointers.size === 1) {
      const [left] = [...pointers.values()];
      const box = board.getBoundingClientRect();
      gesture = { x: left.x + box.left, y: left.y + box.top };
    }
  }
  board.addEventListener("pointerup", lift);
  board.addEventListener("pointercancel", lift);
  // a drag or a pinch is not a tap on the target under the finger
  board.addEventListener(
    "click",
    function (event) {
      if (dragged) {
        event.stopPropagation();
        event.preventDefault();
        dragged = false;
      }
    },
    true
  );

  // ---------------------------------------------------------------- the decision

  function bounds(points) {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return {
      left: Math.min(...xs),
      top: Math.min(...ys),
      right: Math.max(...xs),
      bottom: Math.max(...ys),
    };
  }

  function button(choice, className) {
    const made = document.createElement("button");
    made.type = "button";
    made.className = className;
    made.textContent = choice.label;
    made.dataset.code = choice.code;
    made.addEventListener("click", function () {
      send(choice.code);
    });
    return made;
  }

  function openPanel(target, from) {
    lastFocus = from;
    panelHeading.textContent = target.choices[0].heading || target.label;
    panelChoices.replaceChildren(
      ...target.choices.map(function (choice) {
        return button(choice, "choice");
      })
    );
    panel.hidden = false;
    panelChoices.firstChild.focus();
  }

  function closePanel() {
    panel.hidden = true;
    panelChoices.replaceChildren();
    if (lastFocus && lastFocus.isConnected) {
      lastFocus.focus();
    }
  }
  panelCancel.addEventListener("click", closePanel);
  panel.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      closePanel();
    }
  });

  // the targets' buttons over their regions, in the picture's proportions (they zoom
  // with it); a hex or a circle is cut to its shape
  function lay(regions, width, height, decision) {
    const byKey = new Map(regions.map((region) => [region.key, region]));
    const made = [];
    for (const target of decision.targets) {
      const region = byKey.get(target.key);
      if (!region) {
        continue;
      }
      const box = bounds(region.shape === "circle" ? circle(region.points) : region.points);
      const spot = document.createElement("button");
      spot.type = "button";
      spot.className = "target " + region.shape;
      spot.dataset.key = target.key;
      spot.setAttribute("aria-label", target.label);
      spot.title = target.label;
      spot.style.left = (100 * box.left) / width + "%";
      spot.style.top = (100 * box.top) / height + "%";
      spot.style.width = (100 * (box.right - box.left)) / width + "%";
      spot.style.height = (100 * (box.bottom - box.top)) / height + "%";
      if (region.shape === "hex" || region.shape === "polygon") {
        const corners = region.points.map(function (p) {
          const x = (100 * (p[0] - box.left)) / (box.right - box.left);
          const y = (100 * (p[1] - box.top)) / (box.bottom - box.top);
          return x + "% " + y + "%";
        });
        spot.style.clipPath = "polygon(" + corners.join(", ") + ")";
      }
      spot.addEventListener("click", function () {
        if (target.choices.length === 1) {
          send(target.choices[0].code);
        } else {
          openPanel(target, spot);
        }
      });
      spot.addEventListener("focus", function () {
        board.scrollLeft = 0;
        board.scrollTop = 0;
        reveal(box, width);
      });
      made.push({ spot: spot, box: box });
    }
    layer.replaceChildren(...made.map((m) => m.spot));
    fit(made, width);
  }

  function circle(points) {
    const [[cx, cy], [rx, ry]] = points;
    const r = Math.hypot(rx - cx, ry - cy);
    return [
      [cx - r, cy - r],
      [cx + r, cy + r],
    ];
  }

  // a focused target out of sight is brought into view
  function reveal(box, width) {
    const k = board.clientWidth / width;
    const x = ((box.left + box.right) / 2) * k * view.scale + view.x;
    const y = ((box.top + box.bottom) / 2) * k * view.scale + view.y;
    if (x < 0 || y < 0 || x > board.clientWidth || y > board.clientHeight) {
      centreOn(((box.left + box.right) / 2) * k, ((box.top + box.bottom) / 2) * k);
    }
  }

  // the decision's smallest target at least TOUCH pixels: zoomed to the targets' region
  function fit(made, width) {
    if (!made.length) {
      return;
    }
    const k = board.clientWidth / width;
    const smallest = Math.min(
      ...made.map((m) => Math.min(m.box.right - m.box.left, m.box.bottom - m.box.top) * k)
    );
    if (smallest * view.scale >= TOUCH) {
      return;
    }
    view.scale = Math.min(MAX_SCALE, TOUCH / smallest);
    const all = made.map((m) => m.box);
    const left = Math.min(...all.map((b) => b.left));
    const right = Math.max(...all.map((b) => b.right));
    const top = Math.min(...all.map((b) => b.top));
    const bottom = Math.max(...all.map((b) => b.bottom));
    centreOn(((left + right) / 2) * k, ((top + bottom) / 2) * k);
  }

  function besides(decision) {
    prompt.textContent = decision.prompt;
    besideChoices.replaceChildren(
      ...decision.beside.map(function (choice) {
        return button(choice, "choice");
      })
    );
    beside.hidden = decision.beside.length === 0 && !decision.prompt;
  }

  function note(decision) {
    if (decision.awaited) {
      turnNote.textContent = said.yourTurn;
      turnNote.hidden = false;
      document.title = "▶ " + title;
    } else {
      turnNote.textContent = decision.signed_in && !decision.player ? said.watching : "";
      turnNote.hidden = !turnNote.textContent;
      document.title = title;
    }
  }

  function json(address) {
    return fetch(address, { cache: "no-store", credentials: "same-origin" }).then(
      function (reply) {
        if (!reply.ok) {
          throw new Error(String(reply.status));
        }
        return reply.json();
      }
    );
  }

  function pictureSize() {
    if (picture.complete && picture.naturalWidth) {
      return Promise.resolve([picture.naturalWidth, picture.naturalHeight]);
    }
    return new Promise(function (done) {
      picture.addEventListener(
        "load",
        function () {
          done([picture.naturalWidth, picture.naturalHeight]);
        },
        { once: true }
      );
    });
  }

  function load(mark) {
    const query = "?version=" + encodeURIComponent(mark) + "&lang=" + lang;
    return Promise.all([
      json(base + "/targets.json" + query),
      json(base + "/choices.json" + query),
      pictureSize(),
    ])
      .then(function ([targets, decision, size]) {
        if (decision.version !== body.dataset.mark || targets.version !== decision.version) {
          return; // the game moved on meanwhile: its own load follows
        }
        shown = decision.version;
        sending = false;
        if (!panel.hidden) {
          closePanel();
        }
        lay(targets.regions, size[0], size[1], decision);
        besides(decision);
        note(decision);
        body.dataset.choices = shown; // laid: what a test waits for
      })
      .catch(function () {});
  }

  function send(code) {
    if (sending || !csrf) {
      if (!csrf) {
        signedOut();
      }
      return;
    }
    sending = true;
    answer.textContent = "";
    fetch(base + "/move?lang=" + lang, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ version: shown, code: code }),
    })
      .then(function (reply) {
        if (reply.status === 401) {
          signedOut();
        }
        return reply.json().then(function (result) {
          answer.textContent = result.said || "";
          sending = false;
        });
      })
      .catch(function () {
        sending = false;
      })
      .then(function () {
        // the words now at once (the stream brings them too)
        document.dispatchEvent(new CustomEvent("montana:refresh"));
      });
  }

  document.addEventListener("montana:state", function (event) {
    if (event.detail.mark !== shown) {
      load(event.detail.mark);
    }
  });
  // a tab left open: the session renewed and the choices read again when it is seen
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      account().then(function () {
        load(body.dataset.mark);
      });
    }
  });
  window.addEventListener("resize", apply);
  // the board moves by its transform only: a focused target would make the browser scroll
  // the clipped box under it as well, and the two would disagree
  board.addEventListener("scroll", function () {
    board.scrollLeft = 0;
    board.scrollTop = 0;
  });

  account().then(function () {
    load(body.dataset.mark);
  });
})();
