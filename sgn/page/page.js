// The SGN game report: steps through the moves of the data that sgn/page/__init__.py writes.
// Nothing is drawn here and no markup is made from text: the maps, pieces and highlights are
// SVG drawn in Python, kept in <template id="sgn-store">; a step moves those nodes in and out
// (the pieces at a line are rebuilt from the steps: ids added and removed at each line).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("sgn-data").textContent);
  var count = data.lines.length - 1;           // messages; index 0 is line 0, before the first
  var $ = function (id) { return document.getElementById(id); };
  var slider = $("slider"), pieces = $("pieces"), highlights = $("highlights"), map = $("map");
  var board = pieces.ownerSVGElement;
  var store = $("sgn-store").content;
  function stored(name) {                      // the drawings of the store, by their data-NAME
    var out = {};
    store.querySelectorAll("[data-" + name + "]").forEach(function (node) {
      out[node.getAttribute("data-" + name)] = document.importNode(node, true);
    });
    return out;
  }
  var drawn = stored("piece"), maps = stored("map"), marks = stored("place");
  var moves = document.querySelectorAll("#moves > li");
  moves.forEach(function (li, k) { li.sgnIndex = k + 1; });
  var diagItems = document.querySelectorAll("#diagnostics li[data-diag]");
  var byIndex = {};                            // index -> diagnostics shown there
  data.diags.forEach(function (d, n) { (byIndex[d.i] = byIndex[d.i] || []).push(n); });
  var rows = {};
  document.querySelectorAll("#legend tr[data-player]").forEach(function (tr) { rows[tr.dataset.player] = tr; });
  var current = -1;
  var handRows = {};
  document.querySelectorAll("#hands tr[data-player]").forEach(function (tr) { handRows[tr.dataset.player] = tr; });
  // the holdings (hands, development cards, bank, deck): null where a line changed nothing
  ["hands", "cards", "bank", "deck"].forEach(function (key) {
    var column = data[key];
    for (var k = 1; k < column.length; k++) if (column[k] === null) column[k] = column[k - 1];
  });
  var KINDS = ["KN", "VP", "RB", "YP", "MO"];
  var KIND_NAMES = {KN: "Knight", VP: "Victory Point", RB: "Road Building", YP: "Year of Plenty", MO: "Monopoly"};
  function amount(c) { return Array.isArray(c) ? c[0] + "\u2013" + c[1] : String(c); }   // a range where in doubt
  function fillHand(tr, hand) {
    tr.querySelectorAll("td.r").forEach(function (td, r) {
      var c = hand ? hand[r] : "";
      text(td, hand ? amount(c) : "");
      td.classList.toggle("doubt", Array.isArray(c));
    });
  }
  function leftIn(deck) {                      // the kinds a card drawn unseen may be
    return KINDS.filter(function (k, n) { return deck[n] > 0; });
  }
  function devText(cards, deck) {               // "Knight 2, Monopoly 1 (new), ? 1 (one of ...)"
    if (!cards) return "";
    var said = [];
    KINDS.forEach(function (k, n) {
      var held = cards[0][n], fresh = cards[1][n];
      if (held) said.push(KIND_NAMES[k] + " " + held);
      if (fresh) said.push(KIND_NAMES[k] + " " + fresh + " (new)");
    });
    if (cards[2]) said.push("? " + cards[2] + " (one of " + leftIn(deck).join(", ") + ")");
    if (cards[3]) said.push("? " + cards[3] + " (new; one of " + leftIn(deck).join(", ") + ")");
    return said.length ? said.join(", ") : "none";
  }
  function showHoldings(i) {
    var deck = data.deck[i] || [];
    data.players.forEach(function (p, j) {
      var tr = handRows[p], hands = data.hands[i] || [], cards = data.cards[i] || [];
      fillHand(tr, hands[j] || null);
      text(tr.querySelector(".dev"), devText(cards[j] || null, deck));
    });
    fillHand($("bank"), data.bank[i] && data.bank[i].length ? data.bank[i] : null);
    // the deck counts the kinds not drawn in sight: every purchase is public, so the number
    // left is known; a card drawn unseen may be any kind left, so each kind is a range
    var unseen = 0, holders = [];
    (data.cards[i] || []).forEach(function (c, j) {
      if (c && c[2] + c[3]) { unseen += c[2] + c[3]; holders.push(data.players[j] + " (" + (c[2] + c[3]) + ")"); }
    });
    var left = deck.reduce(function (a, b) { return a + b; }, 0) - unseen;
    text($("deck"), deck.length ? "deck: " + left + " left (" + KINDS.map(function (k, n) {
      return k + " " + (unseen && deck[n] ? Math.max(0, deck[n] - unseen) + "-" + deck[n] : deck[n]);
    }).join(", ") + ")" + (unseen ? "; " + unseen + " drawn unseen, held by " + holders.join(" and ") : "") : "");
  }
  var marked = [];                             // the pieces the move shown placed (python-chess's lastmove)
  function markLast(i) {
    marked.forEach(function (node) { node.classList.remove("last"); });
    marked = i > 0 ? data.add[i].map(function (p) { return drawn[p]; }) : [];
    marked.forEach(function (node) { node.classList.add("last"); });
  }
  // #line=N: the page opens at line N (the last move at or before it); stepping writes it
  function indexOfLine(line) {
    var i = 0;
    while (i < count && data.lines[i + 1] <= line) i++;
    return i;
  }
  function asked() {
    var found = /^#line=(\d+)$/.exec(window.location.hash);
    return found ? indexOfLine(+found[1]) : null;
  }

  // The pieces on the board go from the index shown to the one asked for a step at a time:
  // forwards, what each line adds and removes; backwards, the reverse. A key frame every
  // KEY indices, made once as the page opens, is the start when it is nearer: no step
  // replays the log from its start.
  var KEY = 256, frames = [], on = new Uint8Array(data.ids.length), at = 0;
  (function () {
    var o = new Uint8Array(data.ids.length);
    for (var k = 0; k <= count; k++) {
      if (k > 0) {
        data.del[k].forEach(function (p) { o[p] = 0; });
        data.add[k].forEach(function (p) { o[p] = 1; });
      }
      if (k % KEY === 0) {
        var frame = [];
        for (var p = 0; p < o.length; p++) if (o[p]) frame.push(p);
        frames.push(frame);
      }
    }
  })();

  function piecesAt(i) {
    var f = Math.min(frames.length - 1, Math.round(i / KEY));
    if (Math.abs(i - f * KEY) < Math.abs(i - at)) {
      on.fill(0);
      frames[f].forEach(function (p) { on[p] = 1; });
      at = f * KEY;
    }
    for (; at < i; ) {
      at++;
      data.del[at].forEach(function (p) { on[p] = 0; });
      data.add[at].forEach(function (p) { on[p] = 1; });
    }
    for (; at > i; at--) {
      data.add[at].forEach(function (p) { on[p] = 0; });
      data.del[at].forEach(function (p) { on[p] = 1; });
    }
    var out = [];
    for (var p = 0; p < on.length; p++) if (on[p]) out.push(drawn[p]);
    return out;
  }

  function text(node, value) { node.textContent = value; }

  // ", game 2 of 3" in a log of several games (each begins at its map's line)
  function gameAt(line) {
    if (data.games.length < 2) return "";
    var n = 0;
    while (n < data.games.length && data.games[n] <= line) n++;
    return ", game " + Math.max(n, 1) + " of " + data.games.length;
  }

  // the winner of the game shown at a line (data.winners: one per game, null if none)
  function winnerAt(line) {
    var n = 0;
    while (n < data.games.length && data.games[n] <= line) n++;
    return n > 0 ? data.winners[n - 1] : null;
  }

  function show(i, chosen) {
    i = Math.max(0, Math.min(count, i | 0));
    if (i !== current) {
      pieces.replaceChildren.apply(pieces, piecesAt(i));
      var shownMap = data.map[i];
      if (shownMap >= 0) {
        if (map.firstChild !== maps[shownMap]) map.replaceChildren(maps[shownMap]);
        board.setAttribute("viewBox", data.views[shownMap]);
      } else {
        map.replaceChildren();
      }
      data.players.forEach(function (p, j) {
        var s = data.stats[i][j] || ["", "", ""], tr = rows[p];    // null: not in this game (yet)
        text(tr.querySelector(".points"), amount(s[0]));      // a range where it is in doubt: 7–10
        text(tr.querySelector(".cards"), amount(s[1]));
        text(tr.querySelector(".knights"), s[2]);
        var awards = [];
        if (data.awards[i][0] === p) awards.push("longest road");
        if (data.awards[i][1] === p) awards.push("largest army");
        text(tr.querySelector(".awards"), awards.join(", "));
        var won = winnerAt(data.lines[i]) === p;
        tr.classList.toggle("winner", won);
        tr.querySelector(".winner-mark").hidden = !won;
      });
      if (current > 0) moves[current - 1].classList.remove("current");
      if (i > 0) {
        moves[i - 1].classList.add("current");
        moves[i - 1].scrollIntoView({block: "nearest"});
      }
      $("start").classList.toggle("current", i === 0);
      document.querySelectorAll(".chart").forEach(function (svg) {
        var x = (+svg.dataset.x0 + i * +svg.dataset.step).toFixed(1);
        var cursor = svg.querySelector(".cursor");
        cursor.setAttribute("x1", x);
        cursor.setAttribute("x2", x);
      });
      showHoldings(i);
      markLast(i);
      slider.value = i;
      text($("where"), "line " + data.lines[i] + " (" + i + " of " + count + ")" + gameAt(data.lines[i]));
      document.body.dataset.line = data.lines[i];
      if (current >= 0 && window.location.hash !== "#line=" + data.lines[i]) {
        try { history.replaceState(null, "", "#line=" + data.lines[i]); } catch (e) { /* a page that cannot */ }
      }
      current = i;
    }
    // the diagnostics of this move: all of them, or the one chosen
    var shown = chosen !== undefined ? [chosen] : (byIndex[i] || []);
    highlights.replaceChildren.apply(highlights, shown.map(function (n) { return marks[data.diags[n].place]; })
      .filter(function (node, k, all) { return node && all.indexOf(node) === k; }));
    var caption = $("caption");
    caption.replaceChildren();
    shown.forEach(function (n) {
      var d = data.diags[n], p = document.createElement("p");
      p.className = d.severity;
      p.textContent = "line " + d.line + ": " + d.message + " [" + d.code + "]";
      caption.appendChild(p);
    });
    diagItems.forEach(function (li) {
      var n = +li.dataset.diag;
      li.classList.toggle("current", shown.indexOf(n) >= 0);
    });
  }

  $("moves").addEventListener("click", function (e) {
    var li = e.target.closest("#moves > li");
    if (li) show(li.sgnIndex);
  });
  $("diagnostics").addEventListener("click", function (e) {
    var li = e.target.closest("li[data-diag]");
    if (li) {
      show(+li.dataset.index, +li.dataset.diag);
      li.scrollIntoView({block: "nearest"});
    }
  });
  $("start").addEventListener("click", function () { show(0); });
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(current - 1); });
  $("next").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(count); });
  slider.addEventListener("input", function () { show(+slider.value); });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;   // the slider steps itself
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  window.addEventListener("hashchange", function () {
    var i = asked();
    if (i !== null) show(i);
  });
  var opening = asked();
  show(opening === null ? count : opening);
})();
