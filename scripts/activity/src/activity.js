// The game inside Discord (issue 38.5): Discord's Embedded App SDK signs the player in
// (ready -> authorize -> our server exchanges the code -> authenticate), then the
// Activity opens the game of the channel it was launched in, or lists the player's
// games when launched elsewhere. Every address is taken relative to where the page
// was served from, so that it works behind Discord's proxy (`/.proxy/...`) as on the
// plain web. The page's words come with the page (its data-* attributes), in the
// reader's language.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const root = document.getElementById("activity");
const status = document.getElementById("status");
const list = document.getElementById("games");
// "/.proxy/activity" -> "/.proxy"; "/activity" -> ""
const prefix = location.pathname.replace(/\/activity\/?$/, "");

function say(text) {
  status.textContent = text;
  root.dataset.state = "said";
}

async function answerOf(response) {
  try {
    return await response.json();
  } catch {
    return {};
  }
}

async function start() {
  const clientId = root.dataset.client;
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const signed = await fetch(prefix + "/activity/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
    credentials: "same-origin",
  });
  const session = await answerOf(signed);
  if (!signed.ok) {
    say(session.said || root.dataset.failed);
    return;
  }
  await sdk.commands.authenticate({ access_token: session.access_token });
  const channel = sdk.channelId || "";
  const found = await fetch(
    prefix + "/activity/games.json?channel=" + encodeURIComponent(channel) +
      "&lang=" + encodeURIComponent(root.dataset.lang),
    { credentials: "same-origin" },
  );
  const games = await answerOf(found);
  if (!found.ok) {
    say(games.said || root.dataset.failed);
    return;
  }
  if (games.here) {
    location.replace(prefix + "/" + games.here.path);
    return;
  }
  say(games.games.length ? root.dataset.choose : root.dataset.none);
  for (const game of games.games) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = prefix + "/" + game.path;
    link.textContent = game.title;
    item.appendChild(link);
    list.appendChild(item);
  }
  root.dataset.state = "listed";
}

start().catch(() => say(root.dataset.failed));
