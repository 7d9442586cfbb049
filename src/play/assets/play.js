// play.js: the page of `ttr-opt play` (docs/play.md). Login and register
// go through POST /api/login and /api/register (they set the session
// cookie), then everything else goes over the WebSocket at /ws. The game
// view is drawn from the model: the whole one (sendClientModelInformation,
// or watchGame for a spectator) when the game is opened, then kept by the
// changes the server pushes (modelChanged, applied by applyChanges); other
// pushes only add a short notice. The map is map.js's
// TtrMap, drawn from GET /api/games/{id}/board.
//
// Hooks for browser tests (stable ids and data attributes):
//   #status            connection state ("connecting…", "reconnecting…", "connected")
//   #error, #error-text  the last error from the server (hidden when none); #error-close
//   #notices .notice   short notices (turn started, ticket completed, ...)
//   #user, #logout, #to-lobby   header: who is logged in, log out, back to the lobby
//   #auth              login/register view
//     #login-form: #login-username, #login-password, #login-submit, #login-error (red)
//     #register-form: #register-username, #register-password, #register-confirm,
//                     #register-email, #register-submit, #register-error (red)
//   #lobby             the lobby view
//     #user-games tbody tr[data-game-id][data-state][data-your-turn]
//        buttons inside: .open-game, and for open games .leave-game, and for
//        the creator .add-bot[data-difficulty=easy|hard], .start-game
//     #joinable-games tbody tr[data-game-id]
//        .join-color[data-game-id][data-color]   click = joinGame
//     #create-game-button  opens #create-game
//   #create-game       the Create Game overlay: #create-game-form, #game-name,
//     .color-choice[data-color] (aria-pressed), #board-select (option values =
//     board keys), #board-upload (file input), #create-error, #create-submit, #create-cancel
//   #game[data-game-id][data-state]   the game view
//     #game-title, #turn-info, #last-round, #pass-turn (shown when model.canPass)
//     #players li[data-player-id][data-points][data-trains][data-cards][data-tickets]
//        classes: .current (whose turn), .you, .bot
//     #open-controls: #add-bot-easy, #add-bot-medium, #add-bot-hard, #start-game, #leave-game
//     #leave-playing (a seated player, while the game is played)
//     tabs #tab-hand, #tab-history (panels #panel-hand, #panel-history; only the
//        selected one is displayed); #panel-board (the train yard) is always shown
//        above them, beside the hand
//     #players li .seat-mark[data-pattern] (the seat's line pattern and initial),
//        .points (route points so far: tickets count at the end)
//     #map line.track.claimed[data-pattern] (the owner's seat pattern as a dash array)
//     #map-zoom          enlarges the map in its box (scroll to pan); on by default
//                        on narrow screens
//   body.offline       while the socket is down: the controls are disabled
//     #hand li[data-color][data-count], #hand-total
//     #tickets tbody tr[data-completed=true|false] (City 1, City 2, Points, ✓/✗)
//     #face-up button[data-index][data-color] (disabled when not drawable)
//     #deck (#deck-count), #destination-deck (#destination-count)
//     #history li, #chat li, #chat-form, #chat-input, #chat-send
//     #map line.track[data-route-index]  (every track; also .claimable,
//        .claimed[data-owner=playerId]); city circles carry data-city-index
//     #results tbody tr[data-player-index]   (shown once the game is over)
//   #coach-button      asks the coach (shown when the game allows it, and after the end)
//   #coach-panel[data-game-id][data-score][data-proven]  the coach's plan: #coach-summary,
//     #coach-choices li[data-keep][data-score] (with a ticket offer waiting), #coach-routes
//     li[data-route-indexes], #coach-tickets, #coach-close; its tracks on the map are
//     #map line.coach-plan
//   #review[data-state=pending|done|error]  after the game: #review-status,
//     #review-curve polyline[data-player-id] (one point per turn), #review-players
//     li[data-player-id][data-final][data-single] with .loss items (the costliest turns)
//   #replay[data-state=closed|pending|open|error]  once the game is over (players and
//     spectators): #replay-open, #replay-status; #replay-controls: #replay-slider (a range
//     over the move indexes), #replay-prev, #replay-next (also ← →), #replay-close,
//     #replay-move[data-index][data-seat] (the move in words), #replay-players
//     li[data-player-id][data-points][data-trains-left][data-card-count]
//     [data-destination-count] (totals after it); while open, #map draws the tracks
//     and stations as they stood then; #review-curve line.replay-marker[data-player-id]
//     [data-turn] marks the mover's turn, and a click on the curve replays that turn
//   #create-coach      the Create Game overlay's "allow the coach" checkbox
//   #create-pace (select: untimed|realtime|turnbased), #create-turn-seconds,
//     #create-turn-hours: the game's turn limit (createGame's turnSeconds,
//     turnBased and turnHours)
//   #turn-timer[data-deadline][data-left]  the countdown of the turn (hidden
//     when untimed), .urgent in its last 10 seconds; #players li.away with
//     .tag.away: a seat a bot plays until its player moves
//   #user-games tr .pace   the game's limit in the lobby ("60 s a turn")
//   #sound-toggle, #notify-toggle [aria-pressed]  the turn alerts: a sound
//     made by window.ttrPlaySound() (WebAudio, no file) when a turn becomes
//     yours in the game open, and `new window.Notification(...)` when one
//     becomes yours in any of your games while the tab is hidden (asked for
//     on the toggle's click, never on load); tests stub both
//   #offer-modal       ticket choice: #offer-list input[type=checkbox][data-index],
//                      #offer-min, #offer-submit
//   #claim-modal       route purchase: #claim-title, .payment[data-color][data-wilds],
//                      #claim-cancel
//   #tunnel-modal      a tunnel's extra cards, for its claimer: #tunnel-title,
//                      #tunnel-detail (the cards turned), .payment[data-wilds]
//                      (payTunnel), #tunnel-give-up (giveUpTunnel)
//   Boards with rules of their own (the model's `rules`):
//     #game-rules, and in the lobby tr .rules: the rules in words ("Rules: ...")
//     #map line.track[data-tunnel] (a dashed outline), [data-ferry=N];
//       .ferry-mark[data-route-index][data-wilds] (the locomotives a ferry needs)
//     #map .station[data-city-index][data-owner] (the owner's colour and initial)
//     #map circle[data-city-index] clicks (and .city-hit[data-hit-city]) open
//     #station-modal     building a station: #station-title, #station-detail,
//                        #station-reason (why not, when not), .payment[data-color]
//                        [data-wilds] (buildStation), #station-cancel
//     #players li[data-stations-left] .stations; #claim-detail names a ferry's
//       locomotives and a tunnel's risk
//     #results tr[data-station-points][data-borrowed] .stations-cell
//   window.play        the page's state (play.model is the last model)
"use strict";

const $ = (id) => document.getElementById(id);
const CARD_ORDER = ["red", "orange", "yellow", "green", "blue", "pink", "white", "black", "wild"];
const OK = new Set(["success", "game has started"]);
const MAP_PAPER = "#efe9d8"; // the map's background (play.css #map-wrap)
const COACH = "#8e3fd6"; // the coach's highlight (play.css --coach): no seat's or card's colour

const play = {
  skew: 0, // the server's clock minus this browser's, ms (from `session`)
  username: null,     // who is logged in (null: nobody; undefined: not known yet)
  ws: null,
  retry: 500,         // the next reconnection delay (ms)
  retryTimer: null,
  nextId: 1,
  pending: new Map(), // id -> {command, resolve, quiet}
  joinable: [],
  userGames: [],
  watchable: [],      // watchableGames: games begun that you may watch
  ratings: [],        // getRatings: the leaderboard
  watching: false,    // the game shown is watched, not played
  inviting: null,     // the game an invite link is joining
  rematches: new Map(), // gameId -> the rematch offered to you (its gameId)
  boards: [],         // GET /api/boards
  gameId: null,       // the game shown
  model: null,        // its last model
  board: null,        // its board view
  gameBoards: new Map(), // gameId -> its board view
  tracks: [],         // routeIndex -> {route, track, colour}
  results: new Map(), // gameId -> gameEnded output
  offerKey: "",
  claimTrack: null,   // the routeIndex whose claim dialog is open
  stationCity: null,  // the cityIndex whose station dialog is open
  tab: "hand",
  createColor: "yellow",
  seenChat: 0,
  coach: null,        // {gameId, historyLength, out} (out null while thinking)
  reviews: new Map(), // gameId -> getReview output, or "pending"
  replays: new Map(), // gameId -> getReplay output, "pending", or {error}
  replay: null,       // the replay shown: {gameId, at} (at: the move index), or null
  curve: null,        // the review curve's scale: {x, turns, top, bottom}
  // The turn alerts, kept in this browser: the sound on unless muted, the
  // notifications only once the player allowed them with a click.
  sound: localStorage.getItem("ttr-sound") !== "off",
  notify: localStorage.getItem("ttr-notify") === "on" && "Notification" in window && Notification.permission === "granted",
  audio: null,        // the AudioContext, made at the first sound
};
window.play = play;

// ---- Small helpers ----------------------------------------------------------

/// An HTML element: h("td", {class: "x", "data-id": 3}, "text", child, ...).
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function swatch(color) {
  return h("span", { class: "swatch", "data-color": color, title: color });
}

// Each seat's line pattern, so that players differ by more than colour
// (colour-blind players, grey print): the claimed tracks of seat N are
// dashed so (in map units; [] is solid), and the players' cards, the
// lobby and the results show the same pattern beside the colour.
const SEAT_PATTERNS = [
  { name: "solid", dash: [] },
  { name: "dashes", dash: [3, 1.6] },
  { name: "dots", dash: [0.9, 1.1] },
  { name: "dash-dot", dash: [3, 1, 0.9, 1] },
  { name: "long dashes", dash: [6, 1.6] },
];

function seatPattern(seat) {
  return SEAT_PATTERNS[((seat || 0) % SEAT_PATTERNS.length + SEAT_PATTERNS.length) % SEAT_PATTERNS.length];
}

/// A seat's mark: a short line in its colour and pattern, and the player's
/// initial, so that a seat is told apart without its colour.
function seatMark(seat, color, name) {
  const pattern = seatPattern(seat);
  const NS = "http://www.w3.org/2000/svg";
  const icon = document.createElementNS(NS, "svg");
  icon.setAttribute("viewBox", "0 0 24 8");
  icon.setAttribute("class", "pattern");
  icon.setAttribute("aria-hidden", "true");
  // As on the map: a dark outline under the solid seat, a light one under the dashed.
  const under = pattern.dash.length ? "#d4d4d4" : "#1a1a1a";
  for (const [stroke, width, dash] of [[under, 6, ""], [TtrMap.colour(color), 4, pattern.dash.map((d) => d * 2).join(" ")]]) {
    const line = document.createElementNS(NS, "line");
    for (const [k, v] of Object.entries({ x1: 1, y1: 4, x2: 23, y2: 4, stroke, "stroke-width": width })) line.setAttribute(k, v);
    if (dash) line.setAttribute("stroke-dasharray", dash);
    icon.append(line);
  }
  const initial = (name || "?").charAt(0).toUpperCase();
  return h("span", {
    class: "seat-mark", "data-color": color, "data-pattern": pattern.name,
    title: `${name || "seat " + seat}: ${color}, ${pattern.name} tracks`,
  // The initial is drawn by CSS (::before): the name stands beside it in
  // words already, so it stays out of the text read aloud or copied.
  }, icon, h("span", { class: "initial", "aria-hidden": "true", "data-initial": initial }));
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/// A number in bold and its word, singular for 1: [<b>1</b>, " card"].
function counted(n, word) {
  return [h("b", {}, n), ` ${word}${n === 1 ? "" : "s"}`];
}

function ok(output) {
  return Boolean(output) && OK.has(output.description);
}

const VERBS = {
  login: "Login", register: "Registration", logout: "Logout", createGame: "Creating the game",
  joinGame: "Joining", leaveGame: "Leaving", addAI: "Adding a bot", startGame: "Starting the game",
  sendChat: "Chat", sendClientModelInformation: "Loading the game", buyRoute: "Claiming the route",
  drawTrainCard: "Drawing a card", getDestinations: "Drawing tickets", selectDestinations: "Keeping tickets",
  passTurn: "Passing", updateJoinableGames: "Listing games", updateUserGames: "Listing your games",
  saveGameState: "Saving", loadGameState: "Loading", getCoach: "The coach", getReview: "The review",
  payTunnel: "Paying the tunnel", giveUpTunnel: "Giving up the tunnel", buildStation: "Building the station",
  getHistory: "The history", getChat: "The chat", watchGame: "Watching the game", watchableGames: "Listing games to watch",
  rematch: "The rematch", getPlayer: "The player's page", getRatings: "The ratings",
};

function describe(command, output) {
  const what = (output && output.description) || "no answer";
  const reason = output && output.reason ? `: ${output.reason}` : "";
  const retry = output && output.retryAfter ? ` (try again in ${output.retryAfter} s)` : "";
  return `${VERBS[command] || command || "The server"} failed: ${what}${reason}${retry}`;
}

function showError(message) {
  $("error").hidden = !message;
  $("error-text").textContent = message || "";
  play.errorIsOffline = false;
}

/// The socket is up (true) or down: while it is down every control that
/// sends is disabled (a click would only be refused), and once it is back
/// the "not connected" error it left is cleared and the views drawn again
/// (their own rules decide what is enabled).
function setOnline(online) {
  const was = !document.body.classList.contains("offline");
  document.body.classList.toggle("offline", !online);
  const controls = document.querySelectorAll(
    "#lobby button, #create-game button, #create-game input, #create-game select, #game button, #game input, .modal button");
  // (Tabs, the zoom and closing a panel send nothing: they stay.)
  const local = (c) => c.closest(".tabs") || ["map-zoom", "coach-close", "create-cancel", "claim-cancel", "station-cancel"].includes(c.id);
  if (!online) {
    for (const c of controls) {
      if (!c.disabled && !local(c)) { c.disabled = true; c.dataset.offline = "1"; }
    }
    return;
  }
  for (const c of document.querySelectorAll("[data-offline]")) { c.disabled = false; delete c.dataset.offline; }
  if (play.errorIsOffline) showError("");
  if (!was) {
    if (play.model) renderGame();
    renderLobby();
  }
}

/// A short notice in the corner, gone after a few seconds.
function notice(text, kind) {
  const box = $("notices");
  const item = h("div", { class: "notice" + (kind ? " " + kind : "") }, text);
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => item.remove(), 7000);
}

function setStatus(text) {
  $("status").textContent = text;
}

// ---- HTTP -----------------------------------------------------------------

/// POST a command's parameters as JSON; the answer is the command's output
/// (or an output-like error when the server could not be reached).
async function post(path, body, type) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": type || "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body || {}),
    });
  } catch (e) {
    return { description: "server unreachable", reason: e.message };
  }
  return answer(response);
}

async function getJson(path) {
  let response;
  try {
    response = await fetch(path, { credentials: "same-origin" });
  } catch (e) {
    return { description: "server unreachable", reason: e.message };
  }
  return answer(response);
}

async function answer(response) {
  const text = await response.text();
  let value = null;
  try { value = JSON.parse(text); } catch (_) { value = null; }
  if (value && typeof value === "object") {
    // The envelope, if a server wraps it.
    if (value.output && typeof value.output === "object" && value.description === undefined) value = value.output;
    if (!response.ok && value.description === undefined) {
      value.description = value.error || `HTTP ${response.status}`;
    }
    return value;
  }
  return { description: `HTTP ${response.status}`, reason: text || response.statusText };
}

// ---- The WebSocket ------------------------------------------------------------

function connect() {
  clearTimeout(play.retryTimer);
  play.retryTimer = null;
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  let ws;
  try {
    ws = new WebSocket(url);
  } catch (e) {
    reconnectLater();
    return;
  }
  play.ws = ws;
  ws.onopen = () => {
    if (play.ws === ws) setStatus("connected");
  };
  ws.onmessage = (event) => {
    if (play.ws === ws) receive(event.data);
  };
  ws.onclose = (event) => {
    if (play.ws !== ws) return;
    play.ws = null;
    setOnline(false);
    for (const [, p] of play.pending) p.resolve(null);
    play.pending.clear();
    if (event.code === 1009) showError("The server closed the connection: a message was too large.");
    reconnectLater();
  };
}

function reconnectLater() {
  const delay = play.retry;
  play.retry = Math.min(5000, play.retry * 2);
  setStatus("reconnecting…");
  clearTimeout(play.retryTimer);
  play.retryTimer = setTimeout(connect, delay);
}

/// A fresh socket (after login or logout: the cookie changed).
function reopen() {
  const old = play.ws;
  play.ws = null;
  if (old) old.close();
  play.retry = 500;
  setStatus("connecting…");
  connect();
}

/// Sends a command; resolves with its output (null when not connected or
/// the connection dropped). Errors are shown unless `quiet` (the caller
/// shows them itself); `user` marks a user's action, which clears the last
/// error first.
function send(command, parameters, options) {
  options = options || {};
  if (options.user) showError("");
  return new Promise((resolve) => {
    if (!play.ws || play.ws.readyState !== WebSocket.OPEN) {
      if (!options.background) {
        showError(`Not connected to the server (${VERBS[command] || command} not sent): reconnecting…`);
        play.errorIsOffline = true; // cleared once connected again
      }
      resolve(null);
      return;
    }
    const id = play.nextId++;
    play.pending.set(id, { command, resolve, quiet: options.quiet });
    play.ws.send(JSON.stringify({ command, parameters: parameters || {}, id }));
    // An answer that never comes (a push sent without the id) must not
    // keep the request forever.
    setTimeout(() => {
      if (play.pending.get(id)) {
        play.pending.delete(id);
        resolve(null);
      }
    }, 30000);
  });
}

function receive(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch (_) {
    showError("The server sent a message that is not JSON.");
    return;
  }
  const output = message.output || {};
  const pending = message.id !== undefined && message.id !== null ? play.pending.get(message.id) : null;
  if (pending) play.pending.delete(message.id);
  const command = message.command || (pending && pending.command);
  // A push without a description (none should lack it) is taken as news, not an error.
  const good = ok(output) || (command === "loadGameState" && output.status === "success") ||
    (!pending && output.description === undefined && Boolean(message.command));
  if (!good && !(pending && pending.quiet)) showError(describe(command, output));
  try {
    if (good) handle(command, output, Boolean(pending));
  } finally {
    if (pending) pending.resolve(output);
  }
}

// ---- Messages -----------------------------------------------------------------

function handle(command, out, mine) {
  switch (command) {
    case "session":
      play.retry = 500;
      // The server's clock against this browser's: deadlines are the
      // server's times (a browser's clock may be minutes off).
      if (typeof out.serverTime === "number") play.skew = out.serverTime - Date.now();
      setStatus("connected");
      setOnline(true);
      setUser(out.username || null);
      if (play.username) {
        send("updateJoinableGames", {}, { background: true });
        send("updateUserGames", {}, { background: true });
        send("watchableGames", {}, { background: true });
        send("getRatings", {}, { background: true });
        loadBoards();
      }
      route();
      break;
    case "updateJoinableGames":
      play.joinable = out.games || [];
      renderLobby();
      break;
    case "updateUserGames":
      setUserGames(out.games || []);
      break;
    case "userGameChanged": {
      // One game's entry, pushed as it changes: replaced, or added in id order.
      const games = play.userGames.filter((g) => g.gameId !== out.game.gameId);
      games.push(out.game);
      games.sort((a, b) => a.gameId - b.gameId);
      setUserGames(games);
      break;
    }
    case "watchableGames":
      play.watchable = out.games || [];
      renderLobby();
      break;
    case "getRatings":
      play.ratings = out.players || [];
      renderLobby();
      break;
    case "getPlayer":
      if (ok(out)) renderPlayerPage(out);
      break;
    case "rematchOffered":
      play.rematches.set(out.gameId, out.rematchId);
      notice(`${out.by} asks for a rematch of ${gameName(out.gameId)}.`, "yours");
      if (out.gameId === play.gameId && play.model) renderResults(play.model);
      break;
    case "watchGame":
    case "sendClientModelInformation":
      if (out.gameId === play.gameId) {
        if (!play.model) play.seenChat = out.chatLength ?? (out.chat || []).length;
        const was = play.model && play.model.gameId === out.gameId ? awaitsMe(play.model) : true;
        if (!was && awaitsMe(out)) turnAlert(out.gameId, out.gameName, true);
        play.model = out;
        renderGame();
      }
      break;
    case "modelChanged":
      if (out.gameId === play.gameId && play.model) {
        const was = awaitsMe(play.model);
        if (applyChanges(play.model, out)) {
          if (!was && awaitsMe(play.model)) turnAlert(out.gameId, play.model.gameName, true);
          renderGame();
        } else {
          refreshModel();
        }
      }
      break;
    case "startGame":
      if (out.gameId === play.gameId) {
        notice("The game has started: choose your tickets.");
        refreshModel();
      } else {
        notice(`${gameName(out.gameId)} has started.`);
      }
      break;
    case "turnStartedNotification":
      if (out.gameId === play.gameId && play.model) {
        const yours = out.playerId === play.model.you;
        notice((yours ? "Your turn!" : `${playerName(out.playerId)}'s turn.`) +
          (out.lastRound ? " Last round!" : ""), yours ? "yours" : "");
      } else if (out.gameId !== play.gameId) {
        const g = play.userGames.find((x) => x.gameId === out.gameId);
        const seat = g && (g.players || []).find((p) => p.username === play.username);
        if (seat && (seat.playerOrder ?? seat.playerId) === out.playerId) notice(`Your turn in “${g.gameName}”.`, "yours");
      }
      break;
    case "notifyDestinationRouteCompleted": {
      const r = out.route || {};
      notice(`Ticket completed: ${r.start} – ${r.end} (${r.points} points)`, "good");
      break;
    }
    case "gameEnded":
      play.results.set(out.gameId, out);
      // The game just rated: the leaderboard changed.
      send("getRatings", {}, { background: true });
      if (out.gameId === play.gameId) {
        notice("The game is over.");
        renderGame();
        refreshModel();
      } else {
        notice(`${gameName(out.gameId)} is over.`);
      }
      break;
    case "buyRoute":
    case "payTunnel":
      if (out.gameId === play.gameId && play.model && out.playerId !== play.model.you) {
        const t = play.tracks[out.routeIndexPurchased];
        const turned = (out.drawnCards || []).length ? ` (the tunnel turned ${out.drawnCards.join(", ")})` : "";
        notice(`${playerName(out.playerId)} claimed ${t ? t.route.label : "a route"}${turned}.`);
      }
      break;
    case "tunnelCards":
    case "tunnelGivenUp":
    case "giveUpTunnel":
      // Everyone sees the cards a tunnel turned (the history says it too).
      if (out.gameId === play.gameId && play.model) notice(tunnelNews(command, out));
      break;
    case "buildStation":
      if (out.gameId === play.gameId && play.model && out.playerId !== play.model.you) {
        notice(`${playerName(out.playerId)} built a station in ${out.city}.`);
      }
      break;
    case "drawTrainCard":
      if (out.gameId === play.gameId && play.model && mine && out.cardDrawn) {
        notice(`You drew ${out.cardDrawn === "wild" ? "a locomotive" : out.cardDrawn}.`);
      }
      break;
    case "getCoach":
      if (out.gameId === play.gameId && play.model) {
        play.coach = { gameId: out.gameId, historyLength: play.coach ? play.coach.historyLength : play.model.historyLength, out };
        renderCoach(play.model);
        drawBoard();
      }
      break;
    case "getReview":
      play.reviews.set(out.gameId, out);
      if (out.gameId === play.gameId && play.model) renderReview(play.model);
      break;
    case "getReplay":
      play.replays.set(out.gameId, out);
      if (out.gameId === play.gameId && play.model) showReplay(play.model);
      break;
    case "sendChat":
      if (out.gameId === play.gameId && play.model) {
        const chat = play.model.chat || (play.model.chat = []);
        const last = chat[chat.length - 1];
        if (!last || last.sender !== out.sender || last.message !== out.message) {
          chat.push({ sender: out.sender, message: out.message });
          if (play.model.chatLength !== undefined) play.model.chatLength += 1;
          renderChat();
        }
      }
      break;
    default:
      break;
  }
}

/// A tunnel's cards turned, in words, for every player.
function tunnelNews(command, out) {
  const t = play.tracks[out.routeIndex];
  const who = out.playerId === play.model.you ? "You" : playerName(out.playerId);
  const what = `${who} turned ${(out.drawnCards || []).join(", ")} for the tunnel ${t ? t.route.label : ""}`;
  return command === "tunnelCards"
    ? `${what}: ${plural(out.additionalCards, "card")} more asked for.`
    : `${what}, and gave it up (${plural(out.additionalCards, "card")} more asked for).`;
}

/// The board's rules in words, from a model's or a lobby entry's `rules`
/// ("" for none known): what sets a board apart must be read before
/// playing, not found out by a refused move.
function rulesText(rules) {
  if (!rules) return "";
  const parts = [];
  if (rules.tunnels) parts.push(`${plural(rules.tunnels, "tunnel")} (dashed: 3 cards turned may ask for more)`);
  if (rules.ferries) parts.push(`${plural(rules.ferries, "ferry track")} (● locomotives needed)`);
  const st = rules.stations;
  if (st && st.count) {
    parts.push(`${plural(st.count, "station")} worth ${st.points} each unbuilt (costing ${(st.costs || []).join(", ")} cards)`);
  }
  if (rules.longestPathBonus) parts.push(`longest path +${rules.longestPathBonus}`);
  const deal = rules.deal;
  if (deal && deal.tickets) parts.push(`${plural(deal.tickets, "ticket")} dealt${deal.long ? ` (${deal.long} long)` : ""}, keep ${deal.keep}`);
  return parts.length ? "Rules: " + parts.join(", ") : "";
}

function gameName(gameId) {
  const g = play.userGames.find((x) => x.gameId === gameId);
  return g ? `“${g.gameName}”` : `Game ${gameId}`;
}

function playerName(playerId) {
  const p = play.model && play.model.players.find((x) => x.playerId === playerId);
  return p ? p.username : `Player ${playerId}`;
}

// ---- Views and navigation --------------------------------------------------------

function showView(name) {
  for (const view of ["auth", "lobby", "game"]) $(view).hidden = view !== name;
  $("to-lobby").hidden = name !== "game";
  document.body.dataset.view = name;
}

function setUser(username) {
  play.username = username;
  $("user").hidden = !username;
  $("user").textContent = username ? `Logged in as ${username}` : "";
  $("logout").hidden = !username;
}

function hashGame() {
  const m = /^#game=(\d+)$/.exec(location.hash);
  return m ? Number(m[1]) : null;
}

/// The game a `#watch=N` link (a spectator's) or a `#join=N` link (an
/// invitation) names.
function hashOf(kind) {
  const m = new RegExp(`^#${kind}=(\\d+)$`).exec(location.hash);
  return m ? Number(m[1]) : null;
}

/// The lines of history a model keeps (the server's view::HISTORY).
const HISTORY = 60;

/// Applies a push of what changed (modelChanged) to the model it follows
/// (the one of version `base`), as the server's view::apply: each changed
/// key replaces the model's; a patched list's items change by index (an
/// object's keys, or another value whole); the history's new lines are
/// added. False if the model is not that version (a push missed while
/// disconnected): ask for the whole model.
function applyChanges(model, change) {
  if (model.version !== change.base) return false;
  Object.assign(model, change.changed || {});
  for (const [key, items] of Object.entries(change.patched || {})) {
    for (const [i, item] of Object.entries(items)) {
      const slot = model[key] && model[key][i];
      const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
      if (isObject(slot) && isObject(item)) Object.assign(slot, item);
      else if (model[key]) model[key][i] = item;
    }
  }
  if (change.historyAdded) model.history = (model.history || []).concat(change.historyAdded).slice(-HISTORY);
  model.version = change.version;
  return true;
}

/// Asks for the shown game's model again: as its player, or as a spectator.
function refreshModel() {
  if (play.gameId === null) return;
  send(play.watching ? "watchGame" : "sendClientModelInformation", { gameId: play.gameId }, { background: true });
}

/// An invitation: joins the game in the first colour free, then opens it
/// (a game you sit at already, or one begun, just opens).
async function acceptInvite(gameId) {
  // A link opened on a page already loaded fires both popstate and
  // hashchange: join once.
  if (play.inviting === gameId) return;
  play.inviting = gameId;
  try {
    const list = await send("updateJoinableGames", {}, { background: true });
    const g = ((list && list.games) || []).find((x) => x.gameId === gameId);
    if (g && (g.colors || []).length) {
      const out = await send("joinGame", { gameId, color: g.colors[0] }, { user: true });
      if (!ok(out) && !(out && out.description === "already in this game")) return goLobby();
    }
    goGame(gameId);
  } finally {
    play.inviting = null;
  }
}

function goWatch(gameId) {
  if (hashOf("watch") !== gameId) history.pushState(null, "", `#watch=${gameId}`);
  route();
}

/// Shows what the hash and the session ask for.
function route() {
  if (play.username === undefined) return;
  if (!play.username) {
    closeGame();
    closeModals();
    showView("auth");
    return;
  }
  const id = hashGame();
  const watch = hashOf("watch");
  const invite = hashOf("join");
  if (id !== null) openGame(id, false);
  else if (watch !== null) openGame(watch, true);
  else if (invite !== null) acceptInvite(invite);
  else {
    closeGame();
    showView("lobby");
    renderLobby();
    send("watchableGames", {}, { background: true });
    send("getRatings", {}, { background: true });
  }
}

function goLobby() {
  if (location.hash) history.pushState(null, "", location.pathname + location.search);
  route();
}

function goGame(gameId) {
  if (hashGame() !== gameId) history.pushState(null, "", `#game=${gameId}`);
  route();
}

function closeGame() {
  play.replay = null;
  play.gameId = null;
  play.model = null;
  play.board = null;
  play.tracks = [];
  closeModals();
}

function closeModals() {
  $("offer-modal").hidden = true;
  $("claim-modal").hidden = true;
  $("tunnel-modal").hidden = true;
  $("station-modal").hidden = true;
  play.offerKey = "";
  play.claimTrack = null;
  play.stationCity = null;
}

/// Shows game `gameId`: asks for its model (as a spectator when
/// `watching`) and its board.
function openGame(gameId, watching) {
  showView("game");
  if (play.gameId !== gameId || play.watching !== watching) {
    closeGame();
    play.gameId = gameId;
    play.watching = watching;
    play.seenChat = 0;
    renderGame();
  }
  $("game").dataset.gameId = gameId;
  const command = watching ? "watchGame" : "sendClientModelInformation";
  send(command, { gameId }, { background: true, quiet: true }).then((out) => {
    if (out && !ok(out) && play.gameId === gameId) {
      showError(describe(command, out) + ` (game ${gameId})`);
      goLobby();
    }
  });
  loadBoard(gameId);
}

async function loadBoard(gameId) {
  if (play.gameBoards.has(gameId)) {
    useBoard(gameId, play.gameBoards.get(gameId));
    return;
  }
  const board = await getJson(`/api/games/${gameId}/board`);
  if (!board || !Array.isArray(board.cities) || !Array.isArray(board.routes)) {
    if (play.gameId === gameId) {
      showError(`The board of game ${gameId} could not be loaded: ${(board && board.description) || "no answer"}` +
        (board && board.reason ? `: ${board.reason}` : ""));
    }
    return;
  }
  play.gameBoards.set(gameId, board);
  useBoard(gameId, board);
}

function useBoard(gameId, board) {
  if (play.gameId !== gameId) return;
  play.board = board;
  play.tracks = [];
  let next = 0;
  board.routes.forEach((route) => {
    const first = typeof route.first_track === "number" ? route.first_track : next;
    next = first + route.colours.length;
    route.colours.forEach((colour, track) => { play.tracks[first + track] = { route, track, colour }; });
  });
  renderGame();
}

async function loadBoards() {
  const out = await getJson("/api/boards");
  if (out && Array.isArray(out.boards)) {
    play.boards = out.boards;
    fillBoardSelect();
    renderLobby();
  } else {
    showError(`The list of boards could not be loaded: ${(out && out.description) || "no answer"}` +
      (out && out.reason ? `: ${out.reason}` : ""));
  }
}

/// The bots' levels, the weakest first (the server's ladder).
const BOT_LEVELS = ["easy", "medium", "hard"];

/// A level's button: its strategy and its rating on the board, from the
/// recorded tournament (`/api/boards`' `bots`), when the board has one.
function botLabel(key, level) {
  const b = play.boards.find((x) => x.key === key);
  const rung = b && (b.bots || []).find((x) => x.level === level);
  if (!rung) return `Add bot (${level})`;
  const rated = rung.rating === null ? "" : `, rated ${rung.rating.toFixed(1)}`;
  return `Add bot (${level}: ${rung.strategy}${rated})`;
}

function boardTitle(key, fallback) {
  const b = play.boards.find((x) => x.key === key);
  return (b ? b.title || b.name || key : fallback || key) + uploadTag(key);
}

/// Uploaded boards may share a name: their uploader and day tell them
/// apart, and their key's number when those are the same.
function uploadTag(key) {
  const n = /^upload-(\d+)$/.exec(key || "");
  if (!n) return "";
  const b = play.boards.find((x) => x.key === key);
  const by = b && b.uploader ? `by ${b.uploader}, ` : "";
  const day = b && b.uploaded ? `${new Date(b.uploaded * 1000).toISOString().slice(0, 10)}, ` : "";
  return ` (${by}${day}upload #${n[1]})`;
}

// ---- Login, register, logout -------------------------------------------------------

async function login(event) {
  event.preventDefault();
  const error = $("login-error");
  error.textContent = "";
  const username = $("login-username").value.trim();
  const password = $("login-password").value;
  $("login-submit").disabled = true;
  const out = await post("/api/login", { username, password });
  $("login-submit").disabled = false;
  if (!ok(out)) {
    error.textContent = authError("login", out);
    return;
  }
  $("login-password").value = "";
  loggedIn(out.username || username);
}

async function register(event) {
  event.preventDefault();
  const error = $("register-error");
  error.textContent = "";
  const username = $("register-username").value.trim();
  const password = $("register-password").value;
  if (password !== $("register-confirm").value) {
    error.textContent = "The two passwords differ.";
    return;
  }
  const parameters = { username, password };
  const email = $("register-email").value.trim();
  if (email) parameters.email = email;
  $("register-submit").disabled = true;
  const out = await post("/api/register", parameters);
  $("register-submit").disabled = false;
  if (!ok(out)) {
    error.textContent = authError("register", out);
    return;
  }
  $("register-password").value = "";
  $("register-confirm").value = "";
  loggedIn(out.username || username);
}

function authError(command, out) {
  const d = out && out.description;
  let text;
  if (out && out.reason) text = out.reason;
  else if (command === "login" && d === "invalid input") text = "Wrong username or password.";
  else if (d === "already logged in") text = "This page is logged in already: log out first to change user.";
  else if (d === "too many attempts") text = "Too many failed attempts.";
  else text = d || "no answer";
  if (out && out.retryAfter) text += ` Try again in ${out.retryAfter} s.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function loggedIn(username) {
  setUser(username);
  showError("");
  reopen();
}

async function logout() {
  showError("");
  const out = await post("/api/logout", {});
  if (!ok(out)) {
    showError(describe("logout", out));
    return;
  }
  setUser(null);
  $("notices").replaceChildren();
  play.userGames = [];
  play.joinable = [];
  if (location.hash) history.pushState(null, "", location.pathname + location.search);
  route();
  reopen();
}

// ---- The lobby ---------------------------------------------------------------------

function playerChips(players) {
  return h("span", { class: "chips" }, (players || []).map((p, i) =>
    h("span", { class: "chip" + (p.bot ? " bot" : "") }, seatMark(p.playerOrder ?? p.playerId ?? i, p.color, p.username), p.username)));
}

// The user's games, the whole list or after one changed. A game not open
// here whose turn just became yours: a notification if the tab is hidden
// (the game open has its model's alert).
function setUserGames(games) {
  const before = new Map(play.userGames.map((g) => [g.gameId, g.yourTurn]));
  play.userGames = games;
  for (const g of play.userGames) {
    if (g.yourTurn && before.get(g.gameId) === false && g.gameId !== play.gameId) turnAlert(g.gameId, g.gameName, false);
  }
  renderLobby();
}

function renderLobby() {
  if ($("lobby").hidden) return;
  const mine = $("user-games").tBodies[0];
  mine.replaceChildren();
  for (const g of play.userGames) {
    const creator = g.creator === play.username;
    const open = g.state === "open";
    const state = open ? `open (${plural((g.players || []).length, "player")})`
      : g.state === "playing" ? "playing" : g.state === "over" ? "over" : g.state;
    const turn = g.state === "playing"
      ? (g.yourTurn ? h("span", { class: "badge yours" }, "your turn") : h("span", { class: "hint" }, "waiting"))
      : null;
    const actions = h("td", { class: "actions" }, h("div", {},
      h("button", { type: "button", class: "open-game", "data-game-id": g.gameId, onclick: () => goGame(g.gameId) }, "Open"),
      open && creator ? [
        BOT_LEVELS.map((level) => h("button", { type: "button", class: "add-bot", "data-game-id": g.gameId, "data-difficulty": level, onclick: () => addBot(g.gameId, level) }, botLabel(g.board, level))),
        h("button", { type: "button", class: "start-game", "data-game-id": g.gameId, onclick: () => startGame(g.gameId) }, "Start game"),
      ] : null,
      open ? h("button", { type: "button", class: "leave-game", "data-game-id": g.gameId, onclick: () => leaveGame(g.gameId) }, "Leave") : null));
    const row = h("tr", {
      "data-game-id": g.gameId, "data-state": g.state, "data-your-turn": String(Boolean(g.yourTurn)), class: "clickable" + (g.yourTurn ? " yours" : ""),
    },
    h("td", {}, h("strong", {}, g.gameName)),
    h("td", {}, boardTitle(g.board, g.boardName), h("div", { class: "rules hint" }, rulesText(g.rules))),
    h("td", {}, playerChips(g.players)),
    h("td", {}, state, " ", turn, paceText(g) ? h("div", { class: "pace hint" }, paceText(g)) : null),
    actions);
    row.addEventListener("click", (e) => { if (!e.target.closest("button")) goGame(g.gameId); });
    mine.append(row);
  }
  if (!play.userGames.length) mine.append(h("tr", { class: "empty" }, h("td", { colspan: 5 }, "No games yet: create one or join one below.")));

  const others = $("joinable-games").tBodies[0];
  others.replaceChildren();
  for (const g of play.joinable) {
    others.append(h("tr", { "data-game-id": g.gameId },
      h("td", {}, h("strong", {}, g.gameName)),
      h("td", {}, boardTitle(g.board, g.boardName), h("div", { class: "rules hint" }, rulesText(g.rules))),
      h("td", {}, g.creator || ""),
      h("td", {}, playerChips(g.players)),
      h("td", { class: "join" }, (g.colors || []).map((color) => h("button", {
        type: "button", class: "join-color", "data-game-id": g.gameId, "data-color": color,
        title: `join as ${color}`, "aria-label": `join ${g.gameName} as ${color}`,
        onclick: () => joinGame(g.gameId, color),
      }, swatch(color), color)))));
  }
  if (!play.joinable.length) others.append(h("tr", { class: "empty" }, h("td", { colspan: 5 }, "No open games of others right now.")));

  const watch = $("watch-games").tBodies[0];
  watch.replaceChildren();
  for (const g of play.watchable) {
    watch.append(h("tr", { "data-game-id": g.gameId, "data-state": g.state },
      h("td", {}, h("strong", {}, g.gameName)),
      h("td", {}, boardTitle(g.board, g.boardName)),
      h("td", {}, playerChips(g.players)),
      h("td", {}, g.state === "over" ? "over" : g.turnOf ? `${g.turnOf}'s turn` : "playing"),
      h("td", { class: "actions" }, h("button", {
        type: "button", class: "watch-game", "data-game-id": g.gameId, onclick: () => goWatch(g.gameId),
      }, "Watch"))));
  }
  const ratings = $("ratings").tBodies[0];
  ratings.replaceChildren();
  play.ratings.forEach((p, i) => {
    ratings.append(h("tr", { "data-name": p.name, class: p.name === play.username ? "you" : "" },
      h("td", { class: "num" }, i + 1),
      h("td", {}, h("button", { type: "button", class: "link player-link", "data-name": p.name, onclick: () => openPlayer(p.name) }, ratedName(p.name)),
        p.bot ? h("span", { class: "tag bot" }, "bot") : null),
      h("td", { class: "num", title: `μ ${p.rating.mu.toFixed(1)}, σ ${p.rating.sigma.toFixed(1)}` }, p.rating.rating.toFixed(1)),
      h("td", { class: "num" }, p.games)));
  });
  if (!play.ratings.length) ratings.append(h("tr", { class: "empty" }, h("td", { colspan: 4 }, "No game has ended yet.")));
  if (!play.watchable.length) watch.append(h("tr", { class: "empty" }, h("td", { colspan: 5 }, "No game of others is being played right now.")));
  if (document.body.classList.contains("offline")) setOnline(false);
}

async function joinGame(gameId, color) {
  const out = await send("joinGame", { gameId, color }, { user: true });
  if (ok(out)) goGame(gameId);
}

async function leaveGame(gameId) {
  const out = await send("leaveGame", { gameId }, { user: true });
  if (ok(out)) {
    notice("You left the game.");
    if (play.gameId === gameId) goLobby();
  }
}

function addBot(gameId, difficulty) {
  send("addAI", { gameId, difficulty }, { user: true });
}

function startGame(gameId) {
  send("startGame", { gameId }, { user: true });
}

// ---- Create Game --------------------------------------------------------------------

function openCreate() {
  $("create-error").textContent = "";
  if (!$("game-name").value) $("game-name").value = `${play.username}'s game`;
  pickColor(play.createColor);
  $("create-game").hidden = false;
  $("game-name").focus();
  loadBoards();
}

function pickColor(color) {
  play.createColor = color;
  for (const b of document.querySelectorAll(".color-choice")) {
    b.setAttribute("aria-pressed", String(b.dataset.color === color));
  }
}

function fillBoardSelect(select) {
  const box = $("board-select");
  const current = select || box.value || "usa";
  box.replaceChildren(...play.boards.map((b) => h("option", { value: b.key },
    `${b.title || b.name}${uploadTag(b.key)} (${b.cities} cities, ${b.routes} routes, ${b.tickets} tickets, ${b.cars} cars)`)));
  if (play.boards.some((b) => b.key === current)) box.value = current;
}

async function createGame(event) {
  event.preventDefault();
  const error = $("create-error");
  error.textContent = "";
  const gameName = $("game-name").value.trim();
  if (!gameName) {
    error.textContent = "Give the game a title.";
    return;
  }
  const parameters = { gameName, color: play.createColor, coach: $("create-coach").checked };
  const pace = $("create-pace").value;
  if (pace === "realtime") parameters.turnSeconds = Number($("create-turn-seconds").value);
  if (pace === "turnbased") Object.assign(parameters, { turnBased: true, turnHours: Number($("create-turn-hours").value) });
  if ($("board-select").value) parameters.board = $("board-select").value;
  $("create-submit").disabled = true;
  const out = await send("createGame", parameters, { quiet: true, user: true });
  $("create-submit").disabled = false;
  if (!out) {
    error.textContent = "Not connected to the server: try again in a moment.";
    return;
  }
  if (!ok(out)) {
    error.textContent = authError("createGame", out);
    return;
  }
  $("create-game").hidden = true;
  $("game-name").value = "";
  goGame(out.gameId);
}

async function uploadBoard(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  const error = $("create-error");
  error.textContent = "";
  const text = await file.text();
  const out = await post("/api/boards?name=" + encodeURIComponent(file.name), text);
  if (!ok(out) || !out.key) {
    const why = out && out.reason ? out.reason : (out && out.description) || "refused";
    // The server's reason often names the file already: not twice.
    error.textContent = why.includes(file.name) ? why : `${file.name}: ${why}`;
    return;
  }
  const listed = await getJson("/api/boards");
  if (listed && Array.isArray(listed.boards)) play.boards = listed.boards;
  if (!play.boards.some((b) => b.key === out.key)) {
    play.boards.push({ key: out.key, name: file.name, title: file.name, cities: "?", routes: "?", tickets: "?", cars: "?" });
  }
  fillBoardSelect(out.key);
  $("board-select").value = out.key;
}

// ---- The game ---------------------------------------------------------------------

function me() {
  const m = play.model;
  return m ? m.players.find((p) => p.playerId === m.you) : null;
}

function myTurn() {
  const m = play.model;
  return Boolean(m && m.state === "playing" && m.turn && m.turn.phase !== "setup" && m.turn.playerId === m.you);
}

function claimableMap() {
  const map = new Map();
  for (const c of (play.model && play.model.claimable) || []) map.set(c.routeIndex, c);
  return map;
}

function renderGame() {
  const m = play.model && play.model.gameId === play.gameId ? play.model : null;
  const game = $("game");
  game.dataset.state = m ? m.state : "loading";
  document.title = "Ticket to Ride" + (m ? ` – ${m.gameName}` : "") + (myTurn() ? " (your turn)" : "");
  if (!m) {
    $("game-title").textContent = play.gameId !== null ? `Game ${play.gameId}` : "";
    $("turn-info").textContent = "loading…";
    $("game-rules").textContent = "";
    $("players").replaceChildren();
    $("open-controls").hidden = true;
    $("results").hidden = true;
    drawBoard();
    return;
  }
  $("game-title").textContent = `${m.gameName} · ${boardTitle(m.board, play.board && (play.board.title || play.board.name))}`;
  $("turn-info").textContent = turnText(m);
  $("game-rules").textContent = rulesText(m.rules);
  $("turn-info").className = myTurn() || m.offer ? "yours" : "";
  $("last-round").hidden = !(m.turn && m.turn.lastRound);
  renderTimer();
  $("pass-turn").hidden = !(m.canPass && myTurn());
  $("coach-button").hidden = !coachAllowed(m);
  // A spectator sees the public game: no hand, no tickets, no chat box.
  $("game").classList.toggle("spectator", Boolean(m.spectator));
  $("spectator-banner").hidden = !m.spectator;
  if (m.spectator && play.tab !== "history") selectTab("history");
  renderPlayers(m);
  renderOpenControls(m);
  // A seated player may leave a game being played: a bot plays the seat
  // until they come back by moving.
  $("leave-playing").hidden = !(m.state === "playing" && !m.spectator && m.you !== null && m.you !== undefined);
  renderHand(m);
  renderTickets(m);
  renderYard(m);
  renderHistory(m);
  renderChat();
  renderCoach(m);
  drawBoard();
  renderOffer(m);
  renderClaim();
  renderTunnel(m);
  renderStation();
  renderResults(m);
  if (document.body.classList.contains("offline")) setOnline(false);
}

// ---- Turn timers and alerts ------------------------------------------------------

/// Whether the game `m` waits for this player: their turn, or tickets to
/// choose.
function awaitsMe(m) {
  return Boolean(m && m.state === "playing" && m.you !== null && m.you !== undefined &&
    (m.offer || (m.turn && m.turn.phase !== "setup" && m.turn.playerId === m.you)));
}

/// A game's turn limit in words, for the lobby: "60 s a turn",
/// "turn-based, 24 h a turn" (empty when untimed).
function paceText(g) {
  if (!g.turnLimit) return "";
  const limit = g.turnBased ? `turn-based, ${g.turnLimit / 3600} h a turn` : `${g.turnLimit} s a turn`;
  const left = g.state === "playing" && g.deadline ? ` · ${timeLeft(g.deadline - serverNow())} left` : "";
  return limit + left;
}

/// The server's time now, ms since 1970: this browser's clock corrected
/// by the skew measured at the last `session` message.
function serverNow() {
  return Date.now() + (play.skew || 0);
}

/// A time left in words: "0:42", "5:07", "3 h 12 min".
function timeLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/// The countdown of the turn in the game view: redrawn with each model
/// and every half second by one timer.
function renderTimer() {
  const m = play.model && play.model.gameId === play.gameId ? play.model : null;
  const timer = $("turn-timer");
  const deadline = m && m.state === "playing" ? m.deadline : null;
  timer.hidden = !deadline;
  if (!deadline) return;
  const left = deadline - serverNow();
  timer.dataset.deadline = deadline;
  timer.dataset.left = Math.max(0, Math.ceil(left / 1000));
  timer.textContent = `⏱ ${timeLeft(left)}`;
  timer.classList.toggle("urgent", left < 10000);
}
setInterval(renderTimer, 500);

/// A turn became this player's in game `gameId`: the sound if it is the
/// game open here (and not muted), a notification if the tab is hidden
/// (and they allowed it).
function turnAlert(gameId, gameName, open) {
  if (open && play.sound) window.ttrPlaySound();
  if (document.hidden && play.notify && window.Notification && window.Notification.permission === "granted") {
    new window.Notification("Your turn", { body: `Ticket to Ride: “${gameName}” waits for you.`, tag: `ttr-turn-${gameId}` });
  }
}

/// A short two-note chime from WebAudio: no sound file to load. Made on
/// the page (tests replace it to see it called).
window.ttrPlaySound = function () {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const audio = play.audio || (play.audio = new Context());
  if (audio.state === "suspended") audio.resume();
  const t = audio.currentTime;
  for (const [freq, at] of [[660, 0], [880, 0.12]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.12, t + at);
    gain.gain.exponentialRampToValueAtTime(0.001, t + at + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(t + at);
    osc.stop(t + at + 0.25);
  }
};

function renderAlertToggles() {
  $("sound-toggle").setAttribute("aria-pressed", String(play.sound));
  $("sound-toggle").textContent = play.sound ? "Sound on" : "Sound off";
  $("notify-toggle").setAttribute("aria-pressed", String(play.notify));
  $("notify-toggle").textContent = play.notify ? "Notifications on" : "Notifications off";
}

function toggleSound() {
  play.sound = !play.sound;
  localStorage.setItem("ttr-sound", play.sound ? "on" : "off");
  renderAlertToggles();
}

/// Notifications are asked for here, on the player's click: browsers
/// refuse (and players resent) a request made on load.
async function toggleNotify() {
  if (play.notify) {
    play.notify = false;
  } else if (!window.Notification) {
    notice("This browser cannot show notifications.");
  } else {
    const answer = window.Notification.permission === "granted" ? "granted" : await window.Notification.requestPermission();
    play.notify = answer === "granted";
    if (!play.notify) notice("Notifications are blocked for this page: allow them in the browser's site settings.");
  }
  localStorage.setItem("ttr-notify", play.notify ? "on" : "off");
  renderAlertToggles();
}

function showPaceFields() {
  const pace = $("create-pace").value;
  $("create-seconds").hidden = pace !== "realtime";
  $("create-hours").hidden = pace !== "turnbased";
}

function turnText(m) {
  if (m.state === "open") return `Waiting for players (${m.players.length} of 5) – ${m.creator === play.username ? "add bots or start when ready" : `${m.creator} starts the game`}`;
  if (m.state === "over" || !m.turn) return m.state === "over" ? "Game over" : "";
  const phase = m.turn.phase;
  if (phase === "setup") return m.offer ? "Choose your first tickets" : "Waiting for the others to choose their tickets";
  if (myTurn()) {
    if (phase === "secondCard") return "Your turn: draw your second card";
    if (phase === "destinations") return "Your turn: choose the tickets to keep";
    if (phase === "tunnel") return "Your turn: pay the tunnel's extra cards or give it up";
    return "Your turn: draw train cards, claim a route, or draw tickets" +
      (m.rules && m.rules.stations ? " (or click a city to build a station)" : "");
  }
  const what = phase === "secondCard" ? " (drawing a second card)" : phase === "destinations" ? " (choosing tickets)"
    : phase === "tunnel" && m.tunnel ? ` (a tunnel: turned ${m.tunnel.drawnCards.join(", ")}, ${plural(m.tunnel.additionalCards, "card")} more asked for)` : "";
  return `${playerName(m.turn.playerId)}'s turn${what}`;
}

function renderPlayers(m) {
  const list = $("players");
  list.replaceChildren();
  const players = m.players.slice().sort((a, b) => (a.order ?? a.playerId) - (b.order ?? b.playerId));
  for (const p of players) {
    const current = Boolean(m.turn && m.turn.phase !== "setup" && m.turn.playerId === p.playerId);
    list.append(h("li", {
      class: ["player", current ? "current" : "", p.playerId === m.you ? "you" : "", p.bot ? "bot" : "", p.away ? "away" : ""].filter(Boolean).join(" "),
      "data-player-id": p.playerId, "data-color": p.color, "data-points": p.points, "data-trains": p.trainsLeft,
      "data-cards": p.cardCount, "data-tickets": p.destinationCount,
      "data-stations-left": m.rules && m.rules.stations ? p.stationsLeft : null,
    },
    h("div", { class: "who" }, seatMark(p.playerId, p.color, p.username),
      h("strong", { class: "name" }, p.username),
      p.playerId === m.you ? h("span", { class: "tag" }, "you") : null,
      p.bot ? h("span", { class: "tag bot" }, `bot, ${p.bot}`) : null,
      p.away ? h("span", { class: "tag away", title: "a bot plays this seat until its player makes a move" }, "away: a bot plays") : null,
      current ? h("span", { class: "turn-mark", title: "whose turn" }, "▶") : null),
    h("div", { class: "stats" },
      // The card's number is the route points so far: tickets are secret
      // until the end (the results then add them and the longest path).
      h("span", { class: "points", title: "route points so far (tickets are secret until the end)" }, ...counted(p.points, "route point"),
        finalPoints(m, p.playerId) !== null ? h("span", { class: "final" }, ` (final ${finalPoints(m, p.playerId)})`) : null),
      h("span", { class: "trains", title: "trains left" }, ...counted(p.trainsLeft, "train")),
      h("span", { class: "cards-count", title: "train cards in hand" }, ...counted(p.cardCount, "card")),
      h("span", { class: "tickets-count", title: "tickets" }, ...counted(p.destinationCount, "ticket")),
      m.rules && m.rules.stations ? h("span", { class: "stations", title: "stations left, and where built" },
        ...counted(p.stationsLeft ?? 0, "station"), " left", (p.stations || []).length ? `; in ${p.stations.join(", ")}` : "") : null)));
  }
}

/// A player's final score once the game is over (null before).
function finalPoints(m, seat) {
  const results = m.results || play.results.get(m.gameId);
  const r = results && (results.players || []).find((x) => x.playerIndex === seat);
  return r ? r.points : null;
}

function renderOpenControls(m) {
  const open = m.state === "open";
  $("open-controls").hidden = !open;
  if (!open) return;
  const creator = m.creator === play.username;
  for (const id of ["start-game", ...BOT_LEVELS.map((l) => `add-bot-${l}`)]) $(id).hidden = !creator;
  const full = m.players.length >= 5;
  for (const level of BOT_LEVELS) {
    const button = $(`add-bot-${level}`);
    button.disabled = full;
    button.textContent = botLabel(m.board, level);
  }
  $("start-game").disabled = m.players.length < 2;
  $("open-hint").textContent = creator
    ? (m.players.length < 2 ? "Add a bot or wait for a player to join, then start." : "Start when everyone is here.")
    : `Waiting for ${m.creator} to start the game.`;
  $("invite-link").value = `${location.origin}${location.pathname}#join=${m.gameId}`;
}

/// A rated name as people read it: the bots' rating rows are named after
/// their strategy ("bot:search"), shown with their lobby level (a
/// strategy that was a level once, the planner, by its name alone).
function ratedName(name) {
  if (!name.startsWith("bot:")) return name;
  const level = { "bot:one-step": "easy", "bot:greedy": "medium", "bot:search": "hard" }[name];
  return level ? `Bot (${level}, ${name.slice(4)})` : `Bot (${name.slice(4)})`;
}

function openPlayer(name) {
  send("getPlayer", { name }, { user: true });
}

/// The player page: rating, totals and the last games, from `getPlayer`.
function renderPlayerPage(p) {
  $("player-name").textContent = ratedName(p.name);
  const mean = p.meanScore === null || p.meanScore === undefined ? "–" : p.meanScore.toFixed(1);
  $("player-summary").textContent = `Rating ${p.rating.rating.toFixed(1)} (μ ${p.rating.mu.toFixed(1)}, σ ${p.rating.sigma.toFixed(1)}) · ` +
    `${plural(p.games, "game")}, ${plural(p.wins, "win")} · mean score ${mean} · ${plural(p.ticketsCompleted, "ticket")} completed`;
  const body = $("player-games").tBodies[0];
  body.replaceChildren();
  for (const g of p.recent || []) {
    const change = g.ratingAfter - g.ratingBefore;
    body.append(h("tr", { "data-game-id": g.gameId },
      h("td", {}, new Date(g.date * 1000).toLocaleDateString()),
      h("td", {}, boardTitle(g.board, g.board)),
      h("td", { class: "num" }, `${g.rank} of ${(g.players || []).length}`),
      h("td", { class: "num" }, g.score),
      h("td", { class: "num" }, `${g.ratingAfter.toFixed(1)} (${change >= 0 ? "+" : ""}${change.toFixed(1)})`),
      h("td", {}, (g.players || []).filter((x) => x.name.toLowerCase() !== p.name.toLowerCase())
        .map((x) => `${ratedName(x.name)} ${x.score}`).join(", "))));
  }
  if (!(p.recent || []).length) body.append(h("tr", { class: "empty" }, h("td", { colspan: 6 }, "No finished game yet.")));
  $("player-page").hidden = false;
}

function copyInvite() {
  const field = $("invite-link");
  field.select();
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(() => notice("Invite link copied."), () => {});
}

/// Asks for a rematch (or joins the one offered), then opens it.
async function askRematch() {
  const m = play.model;
  if (!m) return;
  const out = await send("rematch", { gameId: m.gameId }, { user: true });
  if (ok(out)) goGame(out.gameId);
}

function renderHand(m) {
  const you = me();
  const counts = new Map();
  for (const c of (you && you.cards) || []) counts.set(c.color, (counts.get(c.color) || 0) + c.amount);
  const list = $("hand");
  list.replaceChildren();
  let total = 0;
  for (const color of CARD_ORDER) {
    const n = counts.get(color) || 0;
    total += n;
    list.append(h("li", { class: "card" + (n ? "" : " none"), "data-color": color, "data-count": n, title: `${n} ${color}` },
      h("span", { class: "count" }, n), h("span", { class: "name" }, color === "wild" ? "wild" : color)));
  }
  for (const [color, n] of counts) {
    if (!CARD_ORDER.includes(color)) list.append(h("li", { class: "card", "data-color": color, "data-count": n }, h("span", { class: "count" }, n), h("span", { class: "name" }, color)));
  }
  $("hand-total").textContent = m.state === "open" ? "(dealt at the start)" : `(${plural(total, "card")})`;
}

function renderTickets(m) {
  const body = $("tickets").tBodies[0];
  body.replaceChildren();
  for (const t of m.cities || []) {
    const from = t.from ?? t.start, to = t.to ?? t.end;
    body.append(h("tr", {
      "data-completed": String(Boolean(t.completed)), class: t.completed ? "done" : "", title: t.label || `${from} – ${to}`,
      onmouseenter: () => highlightCities([t.cityIndex1, t.cityIndex2]), onmouseleave: () => highlightCities([]),
    },
    h("td", {}, from), h("td", {}, to), h("td", { class: "num" }, t.points),
    h("td", { class: "status " + (t.completed ? "good" : "bad") }, t.completed ? "✓" : "✗")));
  }
  if (!(m.cities || []).length) body.append(h("tr", { class: "empty" }, h("td", { colspan: 4 }, m.state === "open" ? "Dealt at the start." : "No tickets yet.")));
}

function renderYard(m) {
  const drawing = myTurn() && (m.turn.phase === "turn" || m.turn.phase === "secondCard");
  const yard = $("face-up");
  yard.replaceChildren();
  (m.faceUp || []).forEach((color, index) => {
    const wildBlocked = color === "wild" && !m.canDrawWild;
    const why = !color ? "empty" : !drawing ? "not your turn to draw" : wildBlocked ? "a face-up locomotive can't be your second card" : `draw this ${color === "wild" ? "locomotive" : color + " card"}`;
    yard.append(h("button", {
      type: "button", class: "card", "data-index": index, "data-color": color || "none",
      disabled: !color || !drawing || wildBlocked, title: why,
      onclick: () => send("drawTrainCard", { gameId: m.gameId, cardLocation: index }, { user: true }),
    }, h("span", { class: "name" }, color ? (color === "wild" ? "wild" : color) : "–")));
  });
  $("deck-count").textContent = plural(m.deckCount ?? 0, "card");
  $("deck").disabled = !drawing;
  $("deck").title = drawing ? "draw the top card" : "not your turn to draw";
  $("destination-count").textContent = plural(m.destinationDeckCount ?? 0, "ticket");
  const canTickets = myTurn() && m.turn.phase === "turn" && (m.destinationDeckCount ?? 0) > 0;
  $("destination-deck").disabled = !canTickets;
  $("destination-deck").title = canTickets ? "draw up to 3 tickets, keep at least 1" : "not now";
  $("discard-info").textContent = m.discardCount !== undefined ? `${plural(m.discardCount, "card")} in the discard pile` : "";
}

/// The model carries the history's last lines only: they are numbered by
/// their place in the whole game, and the earlier ones are fetched
/// (`getHistory`, a page at a time) when asked for.
function renderHistory(m) {
  const list = $("history");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  const lines = m.history || [];
  const first = Math.max(0, (m.historyLength ?? lines.length) - lines.length);
  const older = play.earlier && play.earlier.gameId === m.gameId ? play.earlier.lines : [];
  const shown = older.length >= first ? older.slice(0, first).concat(lines) : lines;
  const start = older.length >= first ? 0 : first;
  list.start = start + 1;
  list.replaceChildren(...shown.map((line) => h("li", {}, line)));
  const button = $("history-earlier");
  button.hidden = start === 0;
  button.textContent = `Show the ${plural(start, "earlier line")}`;
  if (atEnd) list.scrollTop = list.scrollHeight;
}

async function showEarlierHistory() {
  const m = play.model;
  if (!m) return;
  const first = Math.max(0, m.historyLength - (m.history || []).length);
  const lines = [];
  while (lines.length < first) {
    const out = await send("getHistory", { gameId: m.gameId, from: lines.length });
    if (!out || !ok(out) || !out.history.length) return;
    lines.push(...out.history);
  }
  play.earlier = { gameId: m.gameId, lines };
  if (play.model) renderHistory(play.model);
}

function renderChat() {
  const m = play.model;
  if (!m) return;
  const list = $("chat");
  const chat = m.chat || [];
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...chat.map((c) => h("li", { class: c.sender === play.username ? "mine" : "" }, h("b", {}, c.sender + ": "), c.message)));
  if (atEnd) list.scrollTop = list.scrollHeight;
  // The model carries the latest lines only; chatLength counts them all.
  const total = m.chatLength ?? chat.length;
  if (play.tab === "history") play.seenChat = total;
  $("tab-history").classList.toggle("unread", total > play.seenChat);
}

function highlightCities(indexes) {
  for (const c of document.querySelectorAll("#map circle.hl")) c.classList.remove("hl");
  for (const i of indexes) {
    const c = document.querySelector(`#map circle[data-city-index="${i}"]`);
    if (c) c.classList.add("hl");
  }
}

function drawBoard() {
  const board = play.board;
  const map = $("map");
  if (!board) {
    map.replaceChildren();
    return;
  }
  // While a finished game is replayed, the map shows it as it stood then.
  const m = replayed(play.model && play.model.gameId === play.gameId ? play.model : null);
  const claimable = claimableMap();
  const ticketCities = new Set();
  for (const t of (m && m.cities) || []) { ticketCities.add(t.cityIndex1); ticketCities.add(t.cityIndex2); }
  const byId = new Map(((m && m.players) || []).map((p) => [p.playerId, p]));
  const turn = myTurn();
  const coached = new Set();
  const advice = play.coach && play.coach.gameId === play.gameId && play.coach.out;
  for (const r of (advice && advice.claim) || []) for (const i of r.routeIndexes) coached.add(i);
  const { tunnels, ferries } = specialTracks(m);
  const stations = m && m.rules && m.rules.stations && m.state === "playing" && m.you !== null && m.you !== undefined;
  const drawn = TtrMap.draw(map, board, {
    labelSize: 3.6,
    track: (t) => special(trackStyle(t), t.trackIndex, tunnels, ferries),
    city: (c, i) => {
      const style = ticketCities.has(i)
        ? { fill: "#ffe28a", stroke: "#b3261e", r: 2.8, className: "ticket-city", attrs: { "data-city-index": i } }
        : { attrs: { "data-city-index": i } };
      if (stations) {
        style.onClick = () => openStation(i);
        style.title = `${c.name}: click to build a station`;
      }
      return style;
    },
  });
  // Zoomed (#map-wrap.zoomed), the map keeps the board's proportions.
  const vb = map.viewBox && map.viewBox.baseVal;
  if (vb && vb.width) map.style.aspectRatio = `${vb.width} / ${vb.height}`;
  if (drawn && m) {
    drawFerryMarks(map, ferries, drawn.unit);
    drawStations(map, board, m, drawn.unit);
  }

  /// Why the player may not claim a track now, from their own model (issue
  /// 57: the page said only "you cannot claim it now").
  function whyNot(route, trackIndex, colour) {
    if (!turn) return "not your turn";
    if (m.turn.phase === "secondCard") return "draw your second card first";
    if (m.turn.phase !== "turn") return "finish this turn first";
    // The other tracks between the same two cities (play.tracks, by
    // routeIndex, is built once per board in useBoard).
    const same = (r) => (r.a === route.a && r.b === route.b) || (r.a === route.b && r.b === route.a);
    const owners = play.tracks
      .map((t, i) => (i !== trackIndex && t && same(t.route) ? m.routes[i] : null))
      .filter((o) => o !== null && o !== undefined);
    if (owners.includes(m.you)) return "you own its other track, and a player claims one track of a double route";
    if (owners.length && m.players.length <= 3) return `with ${m.players.length} players only one track of a double route is used`;
    const me = m.players[m.you];
    if (me.trainsLeft < route.length) return `it needs ${plural(route.length, "car")} and you have ${me.trainsLeft} left`;
    const cards = new Map((me.cards || []).map((c) => [c.color, c.amount]));
    const wilds = cards.get("wild") || 0;
    const coloured = [...cards].filter(([c]) => c !== "wild").map(([, n]) => n);
    const have = colour === "gray" ? Math.max(0, ...coloured) : cards.get(colour) || 0;
    const what = colour === "gray" ? "cards of one colour" : `${colour} cards`;
    const ferry = ferries.get(trackIndex) || 0;
    const must = ferry ? `, ${ferry} of them locomotives` : "";
    return `it needs ${route.length} ${what} or locomotives${must}; you have ${have} and ${plural(wilds, "locomotive")}`;
  }

  function trackStyle({ route, trackIndex, colour, unit }) {
      const owner = m && m.routes ? m.routes[trackIndex] : null;
      const attrs = { "data-route-index": trackIndex };
      const name = `${route.label}${route.colours.length > 1 ? ` (${colour} track)` : ` (${colour})`}: ${plural(route.length, "car")}, ${plural(route.points, "point")}`;
      if (owner !== null && owner !== undefined) {
        const p = byId.get(owner);
        const who = owner === m.you ? "you" : p ? p.username : "player " + owner;
        const pattern = seatPattern(owner);
        attrs["data-owner"] = owner;
        attrs["data-pattern"] = pattern.name;
        // The seat's pattern over the dark halo: its gaps show the halo.
        if (pattern.dash.length) attrs["stroke-dasharray"] = pattern.dash.map((d) => d * unit).join(" ");
        // A dashed seat's gaps show a light outline (dark gaps would hide a
        // black seat's pattern); the solid seat keeps the dark one.
        return {
          stroke: TtrMap.colour(p ? p.color : "gray"), width: 3.2, opacity: 1,
          halo: pattern.dash.length ? "#d4d4d4" : "#1a1a1a", haloWidth: 4.6,
          className: "track claimed", attrs, gaps: pattern.dash.length ? null : "#1a1a1a",
          title: `${name}: claimed by ${who}`,
          hit: 6, onClick: () => notice(`${route.label} is claimed by ${who}.`),
        };
      }
      const claim = claimable.get(trackIndex);
      if (coached.has(trackIndex)) {
        attrs["data-coach"] = "plan";
        return {
          // Violet and dashed: no seat's colour (yellow is one), and told by its shape too.
          width: 2.6, opacity: 1, halo: COACH, haloWidth: 6, haloDash: [2.2, 1],
          className: "track coach-plan" + (claim ? " claimable" : ""), attrs, gaps: MAP_PAPER,
          title: `${name}: on the coach's plan` + (claim ? " (click to claim)" : ""), hit: 7,
          onClick: () => { if (claim) openClaim(trackIndex); else notice(`${route.label} is on the coach's plan.`); },
        };
      }
      if (claim) {
        return {
          width: 2.4, opacity: 1, halo: "#fff", haloWidth: 4.4,
          className: "track claimable", attrs, gaps: MAP_PAPER, title: `${name}: click to claim`, hit: 7,
          onClick: () => openClaim(trackIndex),
        };
      }
      const why = !m || m.state !== "playing" ? "" : whyNot(route, trackIndex, colour);
      return {
        width: 1.9, opacity: m && m.state === "playing" ? 0.55 : 0.8, halo: "#6b6b6b", haloWidth: 2.7, haloOpacity: 0.35,
        className: "track", attrs, gaps: MAP_PAPER, title: name + (why ? ` (${why})` : ""), hit: 6,
        onClick: () => { if (why) notice(`${route.label}: ${why}.`); },
      };
  }
}

/// The model's tunnel tracks (a Set of routeIndexes) and ferry tracks (a
/// Map from routeIndex to the locomotives needed).
function specialTracks(m) {
  const rules = (m && m.rules) || {};
  return {
    tunnels: new Set(rules.tunnelTracks || []),
    ferries: new Map((rules.ferryTracks || []).map((f) => [f.routeIndex, f.wilds])),
  };
}

/// A track's style marked as a tunnel (a dashed dark outline, whoever owns
/// it: the shape, not the colour, tells it) or a ferry, in its attributes
/// and its tooltip.
function special(style, trackIndex, tunnels, ferries) {
  const attrs = style.attrs || (style.attrs = {});
  if (tunnels.has(trackIndex)) {
    attrs["data-tunnel"] = "true";
    style.className += " tunnel";
    style.halo = "#1a1a1a";
    style.haloWidth = Math.max(style.haloWidth || 0, 4.8);
    style.haloOpacity = 1;
    style.haloDash = [1.6, 1.1];
    style.title += " – a tunnel: 3 cards are turned from the deck, and each of the colour paid (or a locomotive) asks for one more";
  }
  const wilds = ferries.get(trackIndex);
  if (wilds) {
    attrs["data-ferry"] = wilds;
    style.className += " ferry";
    style.title += ` – a ferry: at least ${plural(wilds, "locomotive")} (wild cards)`;
  }
  return style;
}

/// A ferry's mark beside each ferry track: a dark disc with the number of
/// locomotives it needs.
function drawFerryMarks(map, ferries, unit) {
  const group = TtrMap.svg("g", { class: "ferry-marks" });
  for (const [index, wilds] of ferries) {
    const line = map.querySelector(`line.track[data-route-index="${index}"]`);
    if (!line) continue;
    const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((k) => Number(line.getAttribute(k)));
    const x = (x1 + x2) / 2, y = (y1 + y2) / 2;
    const mark = TtrMap.svg("g", { class: "ferry-mark", "data-route-index": index, "data-wilds": wilds, "pointer-events": "none" });
    mark.append(
      TtrMap.svg("circle", { cx: x, cy: y, r: unit * 2.4, fill: "#222", stroke: "#fff", "stroke-width": unit * 0.5 }),
      TtrMap.svg("text", { x, y: y + unit * 1.1, "text-anchor": "middle", "font-size": unit * 3, fill: "#fff", "font-weight": "bold" }, `${wilds}`),
      TtrMap.svg("title", {}, `Ferry: ${plural(wilds, "locomotive")} needed`));
    group.append(mark);
  }
  map.append(group);
}

/// Every station on the map: a small house in its owner's colour with the
/// owner's initial (so that it is told apart without the colour too).
function drawStations(map, board, m, unit) {
  const group = TtrMap.svg("g", { class: "stations" });
  const index = new Map(board.cities.map((c, i) => [c.name, i]));
  for (const p of m.players) {
    for (const name of p.stations || []) {
      const i = index.get(name);
      if (i === undefined) continue;
      const c = board.cities[i];
      const x = c.x - unit * 4.2, y = c.y - unit * 1.2, s = unit * 2.2;
      const house = TtrMap.svg("g", { class: "station", "data-city-index": i, "data-owner": p.playerId });
      house.append(
        TtrMap.svg("polygon", {
          points: [[x - s, y + s], [x + s, y + s], [x + s, y - s * 0.2], [x, y - s * 1.3], [x - s, y - s * 0.2]].map((q) => q.join(",")).join(" "),
          fill: TtrMap.colour(p.color), stroke: "#111", "stroke-width": unit * 0.5,
        }),
        TtrMap.svg("text", {
          x, y: y + s * 0.85, "text-anchor": "middle", "font-size": unit * 2.4, "font-weight": "bold",
          fill: ["black", "blue", "red", "green"].includes(p.color) ? "#fff" : "#111",
        }, (p.username || "?").charAt(0).toUpperCase()),
        TtrMap.svg("title", {}, `${p.username}'s station in ${name}`));
      if (m.rules && m.rules.stations && m.state === "playing") house.addEventListener("click", () => openStation(i));
      group.append(house);
    }
  }
  map.append(group);
}

// ---- Ticket choice ---------------------------------------------------------------------

function renderOffer(m) {
  const offer = m.offer;
  const modal = $("offer-modal");
  if (!offer || !Array.isArray(offer.destinations)) {
    modal.hidden = true;
    play.offerKey = "";
    return;
  }
  const key = `${m.gameId}:${JSON.stringify(offer)}`;
  if (key !== play.offerKey) {
    play.offerKey = key;
    const list = $("offer-list");
    list.replaceChildren(...offer.destinations.map((d, index) => h("li", {
      onmouseenter: () => highlightCities([d.cityIndex1, d.cityIndex2]), onmouseleave: () => highlightCities([]),
    },
    h("label", {},
      h("input", { type: "checkbox", "data-index": index, onchange: updateOfferSubmit }),
      h("span", { class: "ticket-name" }, d.label || `${d.start} – ${d.end}`),
      h("span", { class: "ticket-points" }, plural(d.points, "point"))))));
    $("offer-submit").disabled = false;
  }
  $("offer-min").textContent = offer.min ?? 1;
  modal.hidden = false;
  updateOfferSubmit();
}

function chosenOffer() {
  return [...document.querySelectorAll("#offer-list input[type=checkbox]")]
    .filter((box) => box.checked).map((box) => Number(box.dataset.index));
}

function updateOfferSubmit() {
  const m = play.model;
  const min = (m && m.offer && m.offer.min) || 1;
  const n = chosenOffer().length;
  $("offer-submit").disabled = n < min;
  $("offer-submit").textContent = n < min ? `Keep at least ${min}` : `Keep ${plural(n, "ticket")}`;
}

async function submitOffer(event) {
  event.preventDefault();
  const m = play.model;
  if (!m || !m.offer) return;
  const chosen = chosenOffer();
  if (chosen.length < (m.offer.min || 1)) return;
  $("offer-submit").disabled = true;
  const out = await send("selectDestinations", { gameId: m.gameId, destinationsSelected: chosen }, { user: true });
  if (!ok(out)) updateOfferSubmit();
}

// ---- Claiming a route ----------------------------------------------------------------------

/// The ways to pay for a track: [{color, wilds, cards, label}], only those
/// the server lists as legal.
function paymentOptions(claim, length) {
  const options = [];
  const seen = new Set();
  for (const p of claim.payments || []) {
    if (p.color === "wild") {
      const key = "wild-only";
      if (!seen.has(key)) { seen.add(key); options.push({ color: p.color, wilds: p.maxWilds ?? length, cards: 0, label: `${length} wild` }); }
      continue;
    }
    for (let w = p.minWilds; w <= p.maxWilds; w++) {
      const cards = Math.max(length - w, 0);
      const key = cards === 0 ? "wild-only" : `${p.color}:${w}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const label = cards === 0 ? `${w} wild` : w === 0 ? `${cards} ${p.color}` : `${cards} ${p.color} + ${w} wild`;
      options.push({ color: p.color, wilds: w, cards, label });
    }
  }
  return options;
}

function openClaim(trackIndex) {
  play.claimTrack = trackIndex;
  renderClaim();
}

function renderClaim() {
  const modal = $("claim-modal");
  const trackIndex = play.claimTrack;
  const m = play.model;
  const claim = trackIndex !== null ? claimableMap().get(trackIndex) : null;
  const info = trackIndex !== null ? play.tracks[trackIndex] : null;
  if (!m || !claim || !info) {
    modal.hidden = true;
    play.claimTrack = null;
    return;
  }
  const { route, colour } = info;
  $("claim-title").textContent = route.label;
  const { tunnels, ferries } = specialTracks(m);
  const wilds = ferries.get(trackIndex);
  $("claim-detail").textContent = `${colour === "gray" ? "A gray track: pay with cards of any one colour" : `A ${colour} track`}, ${plural(route.length, "car")}, ${plural(route.points, "point")}.` +
    (wilds ? ` A ferry: at least ${plural(wilds, "locomotive")} (wild cards) among them.` : "") +
    (tunnels.has(trackIndex) ? " A tunnel: 3 cards are then turned from the deck, and each of the colour paid (or a locomotive) asks for one more card; you may give it up." : "");
  const options = paymentOptions(claim, route.length);
  const groups = new Map();
  for (const o of options) {
    const group = o.cards === 0 ? "wild" : o.color;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(o);
  }
  const box = $("claim-options");
  box.replaceChildren();
  for (const [group, list] of groups) {
    box.append(h("div", { class: "payment-group" },
      h("span", { class: "group-name" }, swatchCard(group), group === "wild" ? "wild only" : group),
      list.map((o) => h("button", {
        type: "button", class: "payment", "data-color": o.color, "data-wilds": o.wilds,
        onclick: () => buy(trackIndex, o),
      }, o.label))));
  }
  if (!options.length) box.append(h("p", {}, "No way to pay for it with your cards."));
  const you = me();
  $("claim-hand").textContent = "Your cards: " + (((you && you.cards) || []).filter((c) => c.amount > 0)
    .map((c) => `${c.amount} ${c.color}`).join(", ") || "none");
  modal.hidden = false;
}

// A tunnel being claimed by this player: the cards turned, and every legal
// payment of the extra cards they ask for (the server's options), or giving
// the tunnel up.
function renderTunnel(m) {
  const modal = $("tunnel-modal");
  const t = m && m.tunnel;
  if (!t || !Array.isArray(t.options) || !t.options.length) {
    modal.hidden = true;
    return;
  }
  const info = play.tracks[t.routeIndex];
  $("tunnel-title").textContent = info ? info.route.label : "";
  $("tunnel-detail").textContent = `The cards turned: ${t.drawnCards.join(", ")}. They ask for ${plural(t.additionalCards, "card")} more.`;
  const box = $("tunnel-options");
  box.replaceChildren(...t.options.map((o) => {
    const parts = [];
    if (o.amount > 0) parts.push(`${o.amount} ${o.color}`);
    if (o.numberOfWilds > 0) parts.push(`${o.numberOfWilds} wild`);
    return h("button", {
      type: "button", class: "payment", "data-wilds": o.numberOfWilds,
      onclick: () => { modal.hidden = true; send("payTunnel", { gameId: m.gameId, numberOfWilds: o.numberOfWilds }, { user: true }); },
    }, "Pay " + parts.join(" + "));
  }));
  modal.hidden = false;
}

// ---- Building a station ---------------------------------------------------------------------

function openStation(cityIndex) {
  play.stationCity = cityIndex;
  renderStation();
}

function closeStation() {
  play.stationCity = null;
  $("station-modal").hidden = true;
}

/// Why this player may not build a station in `city` now, or null when
/// they may (the server's `stationPayments` says how they can pay).
function stationRefusal(m, city) {
  const owner = m.players.find((p) => (p.stations || []).includes(city.name));
  if (owner) return `${city.name} already has a station (${owner.playerId === m.you ? "yours" : owner.username + "'s"}): one a city.`;
  if (!myTurn()) return "It is not your turn.";
  if (m.turn.phase !== "turn") return "Finish your turn's move first.";
  const you = me();
  if (!you || !you.stationsLeft) return "You have no station left.";
  if (!(m.stationPayments || []).length) return `You cannot pay for it: your next station costs ${plural(you.nextStationCost, "card")} of one colour (locomotives may stand in).`;
  return null;
}

/// The station dialog: the city, the next station's cost, and each legal
/// way to pay it (the server's `stationPayments`), or why not.
function renderStation() {
  const modal = $("station-modal");
  const m = play.model;
  const board = play.board;
  const i = play.stationCity;
  if (i === null || !m || !board || !board.cities[i] || !(m.rules && m.rules.stations) || m.state !== "playing") {
    modal.hidden = true;
    play.stationCity = null;
    return;
  }
  const city = board.cities[i];
  const you = me();
  const rules = m.rules.stations;
  $("station-title").textContent = city.name;
  modal.dataset.cityIndex = i;
  $("station-detail").textContent = you && you.stationsLeft
    ? `Your station ${rules.count - you.stationsLeft + 1} of ${rules.count} costs ${plural(you.nextStationCost, "card")} of one colour. ` +
      `At the end it lets one of your tickets use a route of another player's from ${city.name}; each station you leave unbuilt is worth ${rules.points} points.`
    : "";
  const why = stationRefusal(m, city);
  $("station-reason").textContent = why || "";
  const options = why ? [] : paymentOptions({ payments: m.stationPayments }, you.nextStationCost);
  $("station-options").replaceChildren(...options.map((o) => h("button", {
    type: "button", class: "payment", "data-color": o.color, "data-wilds": o.wilds,
    onclick: () => buildStation(city.name, o),
  }, o.label)));
  modal.hidden = false;
}

function buildStation(city, option) {
  const m = play.model;
  closeStation();
  send("buildStation", { gameId: m.gameId, city, trainColor: option.color, numberOfWilds: option.wilds }, { user: true });
}

function swatchCard(color) {
  return h("span", { class: "mini-card", "data-color": color });
}

function buy(trackIndex, option) {
  const m = play.model;
  play.claimTrack = null;
  $("claim-modal").hidden = true;
  send("buyRoute", { gameId: m.gameId, routeIndex: trackIndex, trainColor: option.color, numberOfWilds: option.wilds }, { user: true });
}

// ---- Results ----------------------------------------------------------------------------

function ticketList(value) {
  if (Array.isArray(value)) {
    const names = value.map((t) => (typeof t === "object" && t ? t.label || `${t.start ?? t.from} – ${t.end ?? t.to}` + (t.points !== undefined ? ` (${t.points})` : "") : String(t)));
    return h("span", { title: names.join("\n") }, value.length, value.length ? h("span", { class: "hint" }, ": " + names.join(", ")) : null);
  }
  return value ?? "–";
}

function renderResults(m) {
  const results = m.results || play.results.get(m.gameId);
  const section = $("results");
  section.hidden = !results;
  if (!results) return;
  const offered = play.rematches.get(m.gameId);
  $("rematch").hidden = Boolean(m.spectator);
  $("rematch").textContent = offered ? "Join the rematch" : "Rematch";
  $("rematch-hint").textContent = m.spectator ? "" : offered ? "another player opened a rematch on this board" : "a new game on this board, with the same players and bots";
  const body = section.querySelector("tbody");
  body.replaceChildren();
  const rows = (results.players || []).slice().sort((a, b) => b.points - a.points);
  const stations = Boolean(m.rules && m.rules.stations);
  $("results-stations").hidden = !stations;
  rows.forEach((r, rank) => {
    const p = m.players.find((x) => x.playerId === r.playerIndex);
    body.append(h("tr", { "data-player-index": r.playerIndex, class: r.playerIndex === m.you ? "you" : "" },
      h("td", { class: "num" }, rank + 1),
      h("td", {}, p ? seatMark(p.playerId, p.color, p.username) : null, r.username ?? (p ? p.username : r.playerIndex)),
      h("td", { class: "num" }, h("b", {}, r.points)),
      h("td", { class: "num" }, r.routePoints ?? "–"),
      h("td", { class: "num" }, r.destinationPoints ?? "–"),
      h("td", { class: "num" }, r.longestPath ?? "–", r.longestRouteRecipient ? h("span", { class: "star", title: "longest path bonus" }, " ★") : null),
      h("td", {}, ticketList(r.completed)),
      h("td", {}, ticketList(r.failed)),
      stations ? stationCell(r, m) : null));
    const row = body.lastChild;
    if (stations) {
      row.dataset.stationPoints = r.stationPoints ?? 0;
      row.dataset.borrowed = (r.borrowed || []).length;
    }
  });
  renderReview(m);
  renderReplay(m);
}

/// A player's stations at the end: the points of those unbuilt, where the
/// others were built, and the other players' routes they borrowed.
function stationCell(r, m) {
  const built = r.stations || [];
  const borrowed = (r.borrowed || []).map((b) => `${b.start} – ${b.end} (${playerName(b.owner)})`);
  return h("td", { class: "stations-cell" }, h("b", {}, r.stationPoints ?? 0),
    h("span", { class: "hint" },
      built.length ? ` · built in ${built.join(", ")}` : " · none built",
      borrowed.length ? ` · borrowed ${borrowed.join(", ")}` : ""));
}

// ---- The coach and the review ----------------------------------------------------------

/// The coach may be asked: in a game that allows it, by a seated player
/// while the game is played (after the end, the review tells the rest).
function coachAllowed(m) {
  if (!m || m.you === null || m.you === undefined) return false;
  return m.state === "playing" && Boolean(m.coach);
}

async function askCoach() {
  const m = play.model;
  if (!coachAllowed(m)) return;
  play.coach = { gameId: m.gameId, historyLength: m.historyLength, out: null };
  renderCoach(m);
  const out = await send("getCoach", { gameId: m.gameId }, { user: true });
  if (!out || !ok(out)) {
    if (play.coach && play.coach.gameId === m.gameId && !play.coach.out) play.coach = null;
    renderCoach(play.model);
  }
}

function renderCoach(m) {
  const panel = $("coach-panel");
  // A plan asked for during the game is of no use once it is over.
  if (play.coach && m && m.state === "over") play.coach = null;
  const c = play.coach && m && play.coach.gameId === m.gameId ? play.coach : null;
  panel.hidden = !c;
  if (!c) return;
  panel.dataset.gameId = c.gameId;
  panel.classList.toggle("stale", Boolean(c.out) && c.historyLength !== m.historyLength);
  const a = c.out;
  if (!a) {
    panel.dataset.score = "";
    $("coach-summary").textContent = "Thinking…";
    for (const id of ["coach-choices", "coach-routes"]) $(id).replaceChildren();
    $("coach-routes-title").textContent = $("coach-tickets").textContent = "";
    return;
  }
  panel.dataset.score = a.score;
  panel.dataset.proven = String(a.proven);
  const proof = a.proven ? "proven best" : `best found in the time allowed; no plan scores more than ${a.bound}`;
  $("coach-summary").replaceChildren(
    "Best final score from here: ", h("b", {}, a.score),
    ` (${proof}; ${a.ownedPoints} already scored by your routes).`);
  const offer = m.offer && Array.isArray(m.offer.destinations) ? m.offer.destinations : [];
  $("coach-choices").replaceChildren(...(a.choices || []).map((ch, i) => h("li", {
    class: i === 0 ? "best" : "", "data-keep": ch.keep.join(","), "data-score": ch.score,
  }, `keep ${ch.keep.map((k) => offer[k] ? (offer[k].label || `${offer[k].start} – ${offer[k].end}`) : `#${k + 1}`).join(" and ")}: ${ch.score}${ch.proven ? "" : ` (at most ${ch.bound})`}`)));
  $("coach-routes-title").textContent = a.claim.length
    ? `Routes to claim (${plural(a.carsNeeded, "car")} of your ${a.trainsLeft}), highlighted on the map:`
    : "No route to claim: draw cards and hold on.";
  $("coach-routes").replaceChildren(...a.claim.map((r) => h("li", {
    "data-route-indexes": r.routeIndexes.join(","),
    onmouseenter: () => highlightTracks(r.routeIndexes), onmouseleave: () => highlightTracks([]),
  }, `${r.label} (${plural(r.length, "car")}, ${plural(r.points, "point")})`)));
  const names = (list) => list.map((t) => t.label || `${t.start} – ${t.end}`).join(", ");
  $("coach-tickets").textContent = [
    a.completed.length ? `Completes ${names(a.completed)}.` : "",
    a.lost.length ? `Gives up ${names(a.lost)}.` : "",
  ].filter(Boolean).join(" ");
}

function highlightTracks(indexes) {
  for (const l of document.querySelectorAll("#map line.hl-track")) l.classList.remove("hl-track");
  for (const i of indexes) {
    for (const l of document.querySelectorAll(`#map line[data-route-index="${i}"]`)) l.classList.add("hl-track");
  }
}

/// Asks for the review once per finished game (the server computes it
/// once and keeps it).
function requestReview(gameId) {
  if (play.reviews.has(gameId)) return;
  play.reviews.set(gameId, "pending");
  send("getReview", { gameId }, { background: true, quiet: true }).then((out) => {
    if (out && ok(out)) return; // handle() stored it
    if (play.reviews.get(gameId) === "pending") {
      play.reviews.set(gameId, out ? { error: describe("getReview", out) } : "pending");
      if (out && play.model && play.model.gameId === gameId) renderReview(play.model);
    }
  });
}

function renderReview(m) {
  const box = $("review");
  if (!m || m.state !== "over" || m.you === null || m.you === undefined) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  requestReview(m.gameId);
  const r = play.reviews.get(m.gameId);
  const svgBox = $("review-curve");
  if (!r || r === "pending" || r.error) {
    box.dataset.state = r && r.error ? "error" : "pending";
    $("review-status").textContent = r && r.error ? r.error : "Computing the review: every turn of every player against the proven optimum…";
    svgBox.replaceChildren();
    $("review-players").replaceChildren();
    return;
  }
  const review = r.review;
  box.dataset.state = "done";
  $("review-status").textContent =
    `${review.board}, ${review.cars} cars a player: the board's own optimum at that count is ${review.board_optimum}` +
    ` (every ticket in play). ${review.all_proven ? "Every value is proven." : "Some values are the best found in the time allowed."}`;
  drawReviewCurve(svgBox, review, m);
  const colour = (seat) => { const p = m.players.find((x) => x.playerId === seat); return p ? p.color : "gray"; };
  $("review-players").replaceChildren(...review.players.map((p) => {
    const first = p.turns.length ? p.turns[0].best : p.network_score;
    return h("li", { "data-player-id": p.seat, "data-final": p.network_score, "data-single": p.single_player_optimum, class: p.seat === m.you ? "you" : "" },
      swatch(colour(p.seat)), h("b", {}, p.name),
      `: finished with ${p.network_score}${p.bonus ? ` (+${p.bonus} longest path)` : ""}; best reachable at the first turn ${first}; ` +
      `the same tickets and cars alone on the board: ${p.single_player_optimum}${p.single_player_proven ? "" : " (not proven)"}.`,
      p.costliest.length
        ? h("ul", {}, ...p.costliest.map((l) => h("li", { class: "loss", "data-points": l.points, "data-cause": l.cause }, l.text)))
        : h("ul", {}, h("li", {}, "No turn lost points.")));
  }));
}

/// A seat's colour on the review's white curve: pale colours darkened.
function curveColour(player) {
  const stroke = TtrMap.colour(player ? player.color : "gray");
  return { [TtrMap.colour("white")]: "#8a8a8a", [TtrMap.colour("yellow")]: "#b08d00" }[stroke] || stroke;
}

/// The curve of the review: x the player's turn, y the best final score
/// still reachable; one polyline a player, the final score dashed.
function drawReviewCurve(svg, review, m) {
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  };
  svg.replaceChildren();
  const W = 760, H = 260, L = 44, R = 12, T = 12, B = 28;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const turns = Math.max(1, ...review.players.map((p) => p.turns.length));
  const values = review.players.flatMap((p) => [p.network_score, ...p.turns.map((t) => t.best)]);
  let lo = Math.min(0, ...values), hi = Math.max(1, ...values);
  if (hi === lo) hi = lo + 1;
  const x = (t) => L + (turns === 1 ? 0 : (t - 1) / (turns - 1)) * (W - L - R);
  const y = (v) => T + (hi - v) / (hi - lo) * (H - T - B);
  svg.append(el("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }), el("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
  // A round step giving about five lines: 1, 2 or 5 times a power of ten.
  const raw = (hi - lo) / 5, power = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
  const step = [1, 2, 5, 10].map((k) => k * power).find((k) => k >= raw) || 10 * power;
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    svg.append(el("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, v), el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#eee" }));
  }
  for (let t = 1; t <= turns; t += Math.max(1, Math.ceil(turns / 10))) svg.append(el("text", { x: x(t), y: H - B + 16, "text-anchor": "middle" }, t));
  svg.append(el("text", { x: W - R, y: H - 2, "text-anchor": "end" }, "the player's turn"));
  for (const p of review.players) {
    const player = m.players.find((q) => q.playerId === p.seat);
    const dark = curveColour(player);
    svg.append(el("line", { x1: L, x2: W - R, y1: y(p.network_score), y2: y(p.network_score), stroke: dark, "stroke-width": 1, "stroke-dasharray": "5 4", "data-final-of": p.seat }));
    const line = el("polyline", {
      points: p.turns.map((t) => `${x(t.turn).toFixed(1)},${y(t.best).toFixed(1)}`).join(" "),
      fill: "none", stroke: dark, "stroke-width": p.seat === m.you ? 3 : 2, "data-player-id": p.seat,
    });
    line.append(el("title", {}, `${p.name}: from ${p.turns.length ? p.turns[0].best : "–"} to a final ${p.network_score}`));
    svg.append(line);
  }
  play.curve = { gameId: m.gameId, review, x, y, turns, top: T, bottom: H - B };
  drawReplayMarker();
}

// ---- The replay ----------------------------------------------------------------------
// A finished game move by move (getReplay: public information only): a
// slider over the moves; the map, the move's line and every player's totals
// as they stood after it; a marker on the review's curve at the mover's turn.

/// Asks for the replay once per finished game (the server builds it once).
function requestReplay(gameId) {
  const r = play.replays.get(gameId);
  if (r && !r.error) return;
  play.replays.set(gameId, "pending");
  send("getReplay", { gameId }, { background: true, quiet: true }).then((out) => {
    if (out && ok(out)) return; // handle() stored it
    if (play.replays.get(gameId) === "pending") {
      play.replays.set(gameId, { error: out ? describe("getReplay", out) : "no answer: try again" });
      if (play.model && play.model.gameId === gameId) renderReplay(play.model);
    }
  });
}

/// The replay of the game shown, once loaded (null before, or for another game).
function replayOf(m) {
  const r = m && play.replays.get(m.gameId);
  return r && Array.isArray(r.moves) ? r : null;
}

/// Opens the replay of the game shown at move `at` (its first move when
/// not given): asks for it the first time.
function openReplay(at) {
  const m = play.model;
  if (!m || m.state !== "over") return;
  play.replay = { gameId: m.gameId, at: at ?? 0 };
  requestReplay(m.gameId);
  showReplay(m);
}

function closeReplay() {
  play.replay = null;
  showReplay(play.model);
}

/// Shows move `at` of the replay open (clamped to the moves).
function replayTo(at) {
  const m = play.model;
  const r = replayOf(m);
  if (!play.replay || !r || !r.moves.length) return;
  play.replay.at = Math.max(0, Math.min(r.moves.length - 1, at));
  showReplay(m);
}

/// The replay's panel, the map and the curve's marker, redrawn.
function showReplay(m) {
  renderReplay(m);
  drawBoard();
  drawReplayMarker();
}

/// The index of the move shown, or null when no replay is shown.
function replayAt(m) {
  const r = replayOf(m);
  if (!play.replay || !r || play.replay.gameId !== m.gameId || !r.moves.length) return null;
  return Math.min(play.replay.at, r.moves.length - 1);
}

/// The tracks' owners and the stations (per seat, city names) after move `at`.
function replayState(m, r, at) {
  const routes = (m.routes || []).map(() => null);
  const stations = new Map(m.players.map((p) => [p.playerId, []]));
  for (const e of r.moves.slice(0, at + 1)) {
    if (typeof e.routeIndex === "number") routes[e.routeIndex] = e.seat;
    if (typeof e.cityIndex === "number" && play.board) stations.get(e.seat).push(play.board.cities[e.cityIndex].name);
  }
  return { routes, stations };
}

/// The model as the map draws it: while a replay shows a move before the
/// last, its tracks and stations then; else the model itself (the final
/// board at the last move and once the replay is closed).
function replayed(m) {
  const at = m ? replayAt(m) : null;
  const r = replayOf(m);
  if (at === null || at === r.moves.length - 1) return m;
  const { routes, stations } = replayState(m, r, at);
  return { ...m, routes, players: m.players.map((p) => ({ ...p, stations: stations.get(p.playerId) })) };
}

function renderReplay(m) {
  const box = $("replay");
  if (!m || m.state !== "over") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const r = play.replays.get(m.gameId);
  const open = Boolean(play.replay && play.replay.gameId === m.gameId);
  box.dataset.state = !open ? "closed" : r && r.error ? "error" : replayOf(m) ? "open" : "pending";
  $("replay-open").hidden = open;
  $("replay-status").textContent = !open ? "the board, the moves and every player's totals, move by move"
    : r && r.error ? r.error : replayOf(m) ? "" : "Loading the replay…";
  const at = replayAt(m);
  $("replay-controls").hidden = at === null;
  if (at === null) return;
  const moves = replayOf(m).moves;
  const e = moves[at];
  const slider = $("replay-slider");
  slider.max = moves.length - 1;
  slider.value = at;
  $("replay-prev").disabled = at === 0;
  $("replay-next").disabled = at === moves.length - 1;
  const move = $("replay-move");
  move.dataset.index = at;
  move.dataset.seat = e.seat;
  move.textContent = `Move ${at + 1} of ${moves.length}: ${e.text}`;
  const columns = replayOf(m).totals || ["points", "trainsLeft", "cardCount", "destinationCount"];
  const words = { points: "route point", trainsLeft: "train", cardCount: "card", destinationCount: "ticket" };
  $("replay-players").replaceChildren(...m.players.map((p) => {
    const totals = e.players[p.playerId] || [];
    const li = h("li", { "data-player-id": p.playerId, class: p.playerId === e.seat ? "mover" : "" },
      seatMark(p.playerId, p.color, p.username), h("span", { class: "name" }, p.username + ":"),
      columns.map((c, k) => plural(totals[k] ?? 0, words[c] || c)).join(", "));
    columns.forEach((c, k) => { li.dataset[c] = totals[k] ?? ""; });
    return li;
  }));
}

/// The curve's marker at the turn of the player who made the move shown.
function drawReplayMarker() {
  const svg = $("review-curve");
  for (const old of svg.querySelectorAll(".replay-marker")) old.remove();
  const m = play.model;
  const c = play.curve;
  const at = m ? replayAt(m) : null;
  if (at === null || !c || c.gameId !== m.gameId || !svg.childNodes.length) return;
  const seat = replayOf(m).moves[at].seat;
  const p = c.review.players.find((q) => q.seat === seat);
  if (!p || !p.turns.length) return;
  // The turn holding the move (its start-of-game tickets: the first turn).
  const turn = p.turns.filter((t) => t.move_index <= at).pop() || p.turns[0];
  const player = m.players.find((q) => q.playerId === seat);
  const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
  for (const [k, v] of Object.entries({
    class: "replay-marker", x1: c.x(turn.turn), x2: c.x(turn.turn), y1: c.top, y2: c.bottom,
    stroke: curveColour(player), "data-player-id": seat, "data-turn": turn.turn,
  })) line.setAttribute(k, v);
  svg.append(line);
}

/// A click on the curve: the replay at the nearest turn of the player whose
/// line is nearest there.
function curveClicked(event) {
  const c = play.curve;
  const m = play.model;
  const svg = $("review-curve");
  if (!c || !m || c.gameId !== m.gameId || m.state !== "over" || !svg.getScreenCTM()) return;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const at = point.matrixTransform(svg.getScreenCTM().inverse());
  let best = null;
  for (const p of c.review.players) {
    for (const t of p.turns) {
      const d = Math.abs(c.x(t.turn) - at.x) * 4 + Math.abs(c.y(t.best) - at.y);
      if (!best || d < best.d) best = { d, index: t.move_index };
    }
  }
  if (!best) return;
  if (!play.replay) openReplay(best.index);
  else replayTo(best.index);
}

// ---- Tabs, chat and wiring -------------------------------------------------------------

function selectTab(name) {
  play.tab = name;
  for (const tab of document.querySelectorAll(".tabs [data-tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
  for (const panel of ["hand", "history"]) $(`panel-${panel}`).hidden = panel !== name;
  if (name === "history") {
    renderChat();
    $("history").scrollTop = $("history").scrollHeight;
    $("chat").scrollTop = $("chat").scrollHeight;
  }
}

async function sendChat(event) {
  event.preventDefault();
  const input = $("chat-input");
  const message = input.value.trim();
  if (!message || play.gameId === null) return;
  input.value = "";
  const out = await send("sendChat", { gameId: play.gameId, message }, { user: true });
  if (out && !ok(out) && !input.value) input.value = message; // to fix and send again
}

$("login-form").addEventListener("submit", login);
$("register-form").addEventListener("submit", register);
$("show-register").addEventListener("click", (e) => { e.preventDefault(); $("register-username").focus(); });
$("show-login").addEventListener("click", (e) => { e.preventDefault(); $("login-username").focus(); });
$("logout").addEventListener("click", logout);
$("to-lobby").addEventListener("click", goLobby);
$("error-close").addEventListener("click", () => showError(""));
$("history-earlier").addEventListener("click", showEarlierHistory);
$("rematch").addEventListener("click", askRematch);
$("player-close").addEventListener("click", () => { $("player-page").hidden = true; });
$("invite-copy").addEventListener("click", copyInvite);
$("create-game-button").addEventListener("click", openCreate);
$("create-cancel").addEventListener("click", () => { $("create-game").hidden = true; });
$("create-game-form").addEventListener("submit", createGame);
$("create-pace").addEventListener("change", showPaceFields);
$("sound-toggle").addEventListener("click", toggleSound);
$("notify-toggle").addEventListener("click", toggleNotify);
renderAlertToggles();
$("board-upload").addEventListener("change", uploadBoard);
for (const b of document.querySelectorAll(".color-choice")) b.addEventListener("click", () => pickColor(b.dataset.color));
for (const level of BOT_LEVELS) $(`add-bot-${level}`).addEventListener("click", () => addBot(play.gameId, level));
$("start-game").addEventListener("click", () => startGame(play.gameId));
$("leave-game").addEventListener("click", () => leaveGame(play.gameId));
$("leave-playing").addEventListener("click", () => {
  if (window.confirm("Leave this game? A bot plays your seat from now on; come back and move to take it again.")) leaveGame(play.gameId);
});
for (const tab of document.querySelectorAll(".tabs [data-tab]")) tab.addEventListener("click", () => selectTab(tab.dataset.tab));
$("deck").addEventListener("click", () => {
  if (play.model) send("drawTrainCard", { gameId: play.model.gameId, cardLocation: 5 }, { user: true });
});
$("destination-deck").addEventListener("click", () => {
  if (play.model) send("getDestinations", { gameId: play.model.gameId }, { user: true });
});
$("offer-form").addEventListener("submit", submitOffer);
$("pass-turn").addEventListener("click", () => {
  if (play.model) send("passTurn", { gameId: play.model.gameId }, { user: true });
});
$("claim-cancel").addEventListener("click", () => { play.claimTrack = null; $("claim-modal").hidden = true; });
$("station-cancel").addEventListener("click", closeStation);
$("station-modal").addEventListener("click", (e) => { if (e.target === $("station-modal")) closeStation(); });
$("tunnel-give-up").addEventListener("click", () => {
  $("tunnel-modal").hidden = true;
  if (play.model) send("giveUpTunnel", { gameId: play.model.gameId }, { user: true });
});
$("claim-modal").addEventListener("click", (e) => {
  if (e.target === $("claim-modal")) { play.claimTrack = null; $("claim-modal").hidden = true; }
});
$("chat-form").addEventListener("submit", sendChat);
$("coach-button").addEventListener("click", askCoach);
$("replay-open").addEventListener("click", () => openReplay(0));
$("replay-close").addEventListener("click", closeReplay);
$("replay-prev").addEventListener("click", () => replayTo(play.replay ? play.replay.at - 1 : 0));
$("replay-next").addEventListener("click", () => replayTo(play.replay ? play.replay.at + 1 : 0));
$("replay-slider").addEventListener("input", (e) => replayTo(Number(e.target.value)));
$("review-curve").addEventListener("click", curveClicked);
function zoomMap(on) {
  $("map-wrap").classList.toggle("zoomed", on);
  $("map-zoom").setAttribute("aria-pressed", String(on));
  $("map-zoom").textContent = on ? "Fit map" : "Zoom map";
}
$("map-zoom").addEventListener("click", () => zoomMap(!$("map-wrap").classList.contains("zoomed")));
// On a phone the whole map is too small to read: enlarged, panned by scrolling.
zoomMap(window.matchMedia("(max-width: 600px)").matches);
$("coach-close").addEventListener("click", () => { play.coach = null; renderCoach(play.model); drawBoard(); });
document.addEventListener("keydown", (e) => {
  // The arrows step through an open replay (the slider, focused, steps by itself).
  const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName);
  if (play.replay && !typing && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    e.preventDefault();
    replayTo(play.replay.at + (e.key === "ArrowRight" ? 1 : -1));
    return;
  }
  if (e.key !== "Escape") return;
  if (!$("claim-modal").hidden) { play.claimTrack = null; $("claim-modal").hidden = true; }
  if (!$("station-modal").hidden) closeStation();
  if (!$("create-game").hidden) $("create-game").hidden = true;
});
/// Back, forward, or a typed #game=N: show it (once: both events fire).
function navigated() {
  const id = hashGame();
  const watch = hashOf("watch");
  const shownGame = !$("game").hidden;
  if (id !== null && id === play.gameId && !play.watching && shownGame) return;
  if (watch !== null && watch === play.gameId && play.watching && shownGame) return;
  // A #join=N link opened from the lobby changes only the hash: route it.
  if (!location.hash && play.gameId === null && !$("lobby").hidden) return;
  route();
}
window.addEventListener("popstate", navigated);
window.addEventListener("hashchange", navigated);

play.username = undefined;
connect();
