// The turn kit's script (docs/turn-kit.md): the seat's maps to pan, zoom and click, the check of
// the turn file as `gm orders check --report` gives it (the envelope, then the ruleset's order
// grammar: gm/core/envelope.py and gm/core/order_grammar.py, step for step and word for word),
// the order builder, and copy, mail or the portal. It reads only the data in the page and asks
// no network.
"use strict";

// The longest turn file (encoded) handed to the portal in a link; templates/web/handoff.js takes
// no longer one. Browsers keep addresses of this length whole (docs/turn-kit.md).
var HANDOFF_MAX = 60000;

var KIT = (function () {
  // ---- Words one slip away (gm.core.warnings.close_to, on difflib.get_close_matches) ----
  function matched(a, b) {
    // difflib's SequenceMatcher: the characters of the matching blocks, found longest first.
    var total = 0, todo = [[0, a.length, 0, b.length]];
    while (todo.length) {
      var q = todo.pop(), alo = q[0], ahi = q[1], blo = q[2], bhi = q[3];
      var besti = alo, bestj = blo, size = 0, lengths = {};
      for (var i = alo; i < ahi; i++) {
        var next = {};
        for (var j = blo; j < bhi; j++) {
          if (a[i] !== b[j]) continue;
          var k = (lengths[j - 1] || 0) + 1;
          next[j] = k;
          if (k > size) { besti = i - k + 1; bestj = j - k + 1; size = k; }
        }
        lengths = next;
      }
      if (!size) continue;
      total += size;
      if (alo < besti && blo < bestj) todo.push([alo, besti, blo, bestj]);
      if (besti + size < ahi && bestj + size < bhi) todo.push([besti + size, ahi, bestj + size, bhi]);
    }
    return total;
  }

  function closeTo(word, words) {
    var spelled = {}, key = word.toUpperCase();
    words.forEach(function (w) { spelled[w.toUpperCase()] = w; });
    if (key.length < 2 || !/^[\p{L}\p{N}]+$/u.test(key) || /^\p{N}+$/u.test(key) || key in spelled) return [];
    var letters = function (w) { return /^\p{L}+$/u.test(w); };
    var scored = [];
    Object.keys(spelled).sort().forEach(function (w) {
      if (Math.abs(w.length - key.length) > 1 || letters(w) !== letters(key)) return;
      var ratio = 2 * matched(w, key) / (w.length + key.length);
      if (ratio >= 0.6) scored.push([ratio, w]);
    });
    // heapq.nlargest on (ratio, word): the best first, a tie to the later word.
    scored.sort(function (x, y) { return y[0] - x[0] || (x[1] < y[1] ? 1 : x[1] > y[1] ? -1 : 0); });
    return scored.slice(0, 2).map(function (s) { return spelled[s[1]]; });
  }

  function didYouMean(word, words) {
    var close = closeTo(word, words);
    return close.length ? " (did you mean " + close.join(" or ") + "?)" : "";
  }

  // ---- The envelope (gm.core.envelope.read_envelope) ----
  var PLACEHOLDER = "<your secret>";
  var FILL_IN = "PASSWORD needs your secret, written in place of " + PLACEHOLDER +
    " (gm gave it to you with your seat), as in 'PASSWORD 7f3k-29qa'";
  var EXAMPLE = { GAME: "clash-1", PLAYER: "BR", PASSWORD: "7f3k-29qa", TURN: "7" };
  var HEADER = ["GAME", "PLAYER", "PASSWORD", "TURN"];
  var LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

  function cleanLine(raw) {
    raw = raw.replace(/[\u00a0\u2007\u202f\u3000\t]/g, " ").replace(/\ufeff/g, "");
    return raw.split("#")[0].trim();
  }

  function words(text) { return text.split(/\s+/).filter(function (w) { return w; }); }

  function isPressEnd(line) {
    var joined = words(line.toUpperCase()).join(" ");
    return joined === "ENDPRESS" || joined === "END PRESS";
  }

  function isPressHead(line) {
    var first = words(line)[0] || "";
    return first.toUpperCase() === "PRESS" || first.toUpperCase() === "BROADCAST";
  }

  function oneLinePress(raw) {
    var at = raw.indexOf(":");
    if (at < 0 || raw.slice(0, at).indexOf("#") >= 0) return false;
    return raw.slice(at + 1).trim() !== "";
  }

  function readEnvelope(text) {
    var values = {}, where = {}, lines = [], problems = [];
    var started = false, ended = 0, inPress = false;
    var numbered = text.split(LINE_BREAK);
    for (var n = 0; n < numbered.length; n++) {
      var number = n + 1, raw = numbered[n];
      if (/^\s*>/.test(raw)) continue;
      var line = cleanLine(raw);
      if (inPress && !(line.toUpperCase() === "END" || isPressEnd(line))) continue;
      if (!line) continue;
      var space = line.indexOf(" ");
      var keyword = (space < 0 ? line : line.slice(0, space)).toUpperCase();
      var rest = space < 0 ? "" : line.slice(space + 1).trim();
      if (!started) {
        if (keyword === "GAME") { started = true; header(values, where, keyword, rest, number, problems); }
        continue;
      }
      if (inPress) { inPress = false; if (isPressEnd(line)) continue; }
      if (keyword === "END") { ended = number; break; }
      if (isPressHead(line)) { inPress = !oneLinePress(raw); }
      else if (keyword === "FINAL" && !rest) { /* final orders: nothing to check */ }
      else if (keyword === "ABSENT") {
        if (words(rest).length !== 2) problems.push([number, "ABSENT needs the first and last day away, as in 'ABSENT 2026-12-20 2027-01-03'"]);
      }
      else if (HEADER.indexOf(keyword) >= 0) header(values, where, keyword, rest, number, problems);
      else lines.push([number, line]);
    }
    if (!started) {
      return { problems: [[0, "no turn file found: the orders must start with a line 'GAME <game name>' and end with 'END'"]], lines: [] };
    }
    if (!ended) problems.push([0, "the turn file has no END line: put END after the last order"]);
    ["PLAYER", "PASSWORD"].forEach(function (word) {
      var said = problems.some(function (p) { return p[1].indexOf(word + " ") === 0; });
      if (!(word in values) && !said) problems.push([0, "the turn file has no " + word + " line"]);
    });
    var turn = null;
    if ("TURN" in values) {
      if (/^\s*[+-]?\d+(_\d+)*\s*$/.test(values.TURN)) turn = parseInt(values.TURN.split("_").join(""), 10);
      else problems.push([where.TURN, "TURN must be a number, not '" + values.TURN + "'"]);
    }
    return {
      game: values.GAME, player: values.PLAYER && values.PLAYER.toUpperCase(), turn: turn,
      password: values.PASSWORD, lines: lines, problems: problems,
    };
  }

  function header(values, where, keyword, rest, number, problems) {
    if (keyword === "PASSWORD" && (rest.toLowerCase() === "" || rest.toLowerCase() === PLACEHOLDER)) {
      problems.push([number, FILL_IN]);
      return;
    }
    if (!rest || rest.indexOf(" ") >= 0) {
      problems.push([number, keyword + " needs exactly one value, as in '" + keyword + " " + EXAMPLE[keyword] + "'"]);
      return;
    }
    if (keyword in values && values[keyword] !== rest) {
      problems.push([number, keyword + " is given twice with different values"]);
      return;
    }
    values[keyword] = rest;
    where[keyword] = number;
  }

  // ---- The refusal (gm.services.offline._refusal) ----
  function refusal(report, envelope) {
    if (envelope.problems.length) {
      return envelope.problems.map(function (p) { return p[0] ? "line " + p[0] + ": " + p[1] : p[1]; }).join("; ");
    }
    if (envelope.game !== report.game) {
      return "the file is for game '" + envelope.game + "', the report for '" + report.game + "' (check the GAME line)";
    }
    if (envelope.player !== report.seat.toUpperCase()) {
      return "the file is for player " + envelope.player + ", the report for " + report.seat + " (check the PLAYER line)";
    }
    if (envelope.turn !== null && envelope.turn !== report.turn + 1) {
      return "these orders are for turn " + envelope.turn + ", the report is of turn " + report.turn +
        ": its orders are for turn " + (report.turn + 1);
    }
    return null;
  }

  // ---- The order grammar (gm.core.order_grammar.check_lines) ----
  var ACTION_NUMBER = /^[0-9]{1,3}[.):]?$/;

  function shown(word) { return word.length <= 20 ? word : word.slice(0, 20) + "..."; }

  function say(template, word, near, name) {
    return template.split("{name}").join(name || "").split("{near}").join(near).split("{word}").join(shown(word));
  }

  function accepts(argument, value, facts) {
    if (!argument.fact && !argument.pattern) return true;
    if (argument.pattern && new RegExp("^(?:" + argument.pattern + ")$", "i").test(value)) return true;
    return !!argument.fact && (facts[argument.fact] || {})[value.toUpperCase()] === true;
  }

  // A line's words as the grammar cuts it (OrderGrammar.pairs): a comma is a space, or in a
  // grammar of pairs brackets are spaces and a comma between two numbers joins them (12,40).
  function lineWords(grammar, text) {
    if (!grammar.pairs) return words(text.split(",").join(" "));
    return words(text.split("(").join(" ").split(")").join(" ").replace(/([0-9]+)\s*,\s*([0-9]+)/g, "$1,$2"));
  }

  function lineFinding(grammar, facts, text) {
    var said = lineWords(grammar, text);
    if (grammar.numbered && said.length > 1 && ACTION_NUMBER.test(said[0])) said = said.slice(1);
    if (!said.length) return null;
    var order = null;
    grammar.words.forEach(function (w) { if (w.word === said[0].toUpperCase()) order = w; });
    if (!order) {
      var hinted = grammar.hinted && grammar.hinted.length ? grammar.hinted : grammar.words.map(function (w) { return w.word; });
      return say(grammar.unknown, said[0], didYouMean(said[0], hinted));
    }
    var given = said.slice(1), args = order.arguments;
    var fewest = args.filter(function (a) { return !a.optional; }).length;
    if (given.length < fewest || (!order.repeats && given.length > args.length)) return say(order.count, said[0], "");
    for (var i = 0; i < given.length; i++) {
      var argument = args[Math.min(i, args.length - 1)];
      if (!accepts(argument, given[i], facts)) {
        // A value of another shape than the fact's is said in the parser's words (Argument.finding).
        if (argument.misshapen && argument.shape && !new RegExp("^(?:" + argument.shape + ")$").test(given[i])) {
          return say(argument.misshapen, given[i], "", argument.name);
        }
        var near = argument.fact ? didYouMean(given[i], grammar.facts[argument.fact] || []) : "";
        return say(argument.wrong, given[i], near, argument.name);
      }
    }
    return null;
  }

  function checkLines(grammar, lines) {
    if (!grammar) return [];
    var facts = {};
    Object.keys(grammar.facts).forEach(function (kind) {
      facts[kind] = {};
      grammar.facts[kind].forEach(function (v) { facts[kind][v.toUpperCase()] = true; });
    });
    var found = [];
    lines.forEach(function (line) {
      var message = lineFinding(grammar, facts, line[1]);
      if (message !== null) found.push([line[0], message]);
    });
    return found;
  }

  // What the page's check gives a turn file: the refusal, or the declaration's findings by line.
  function check(report, text) {
    var envelope = readEnvelope(text);
    var refused = refusal(report, envelope);
    if (refused) return { refusal: refused, problems: [], lines: envelope.lines };
    return { refusal: null, problems: checkLines(report.grammar, envelope.lines), lines: envelope.lines };
  }

  return { check: check, checkLines: checkLines, closeTo: closeTo, readEnvelope: readEnvelope };
})();

(function () {
  var source = document.getElementById("kit-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var $ = function (id) { return document.getElementById(id); };
  var box = $("turn-file"), secret = $("secret");

  // ---- Maps: pan by dragging, zoom by wheel or buttons, a click shows what the report knows ----
  Array.prototype.forEach.call(document.querySelectorAll(".kit-map"), function (figure, index) {
    var svg = figure.querySelector("svg"), about = data.maps[index] || { spots: [] };
    if (!svg) return;
    var full = svg.viewBox.baseVal, view = [full.x, full.y, full.width, full.height];
    var start = view.slice(), drag = null;
    function show() { svg.setAttribute("viewBox", view.join(" ")); }
    function zoom(factor, cx, cy) {
      var w = Math.min(start[2], Math.max(start[2] / 20, view[2] * factor)), scale = w / view[2];
      cx = cx === undefined ? view[0] + view[2] / 2 : cx;
      cy = cy === undefined ? view[1] + view[3] / 2 : cy;
      view = [cx - (cx - view[0]) * scale, cy - (cy - view[1]) * scale, w, view[3] * scale];
      show();
    }
    function point(event) {
      // Through the picture's own transform: it keeps its aspect, so its box may be wider.
      var at = svg.createSVGPoint();
      at.x = event.clientX;
      at.y = event.clientY;
      at = at.matrixTransform(svg.getScreenCTM().inverse());
      return [at.x, at.y];
    }
    svg.addEventListener("wheel", function (event) {
      event.preventDefault();
      var at = point(event);
      zoom(event.deltaY > 0 ? 1.25 : 0.8, at[0], at[1]);
    }, { passive: false });
    svg.addEventListener("pointerdown", function (event) {
      drag = { x: event.clientX, y: event.clientY, view: view.slice(), moved: false, perPixel: 1 / svg.getScreenCTM().a };
    });
    svg.addEventListener("pointermove", function (event) {
      if (!drag) return;
      var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
      if (!drag.moved) return;
      view = [drag.view[0] - dx * drag.perPixel, drag.view[1] - dy * drag.perPixel, view[2], view[3]];
      show();
    });
    svg.addEventListener("pointerup", function (event) {
      var moved = drag && drag.moved;
      drag = null;
      if (!moved) details(nearest(about, point(event)));
    });
    figure.querySelector(".zoom-in").addEventListener("click", function () { zoom(0.66); });
    figure.querySelector(".zoom-out").addEventListener("click", function () { zoom(1.5); });
    figure.querySelector(".zoom-all").addEventListener("click", function () { view = start.slice(); show(); });
  });

  function nearest(about, at) {
    var best = null, distance = Infinity;
    about.spots.forEach(function (spot) {
      var d = Math.hypot(spot[0] - at[0], spot[1] - at[1]);
      if (d < distance) { distance = d; best = spot[2]; }
    });
    return distance <= about.reach ? best : null;
  }

  function details(code) {
    var panel = $("details"), lines = code === null ? null : data.details[code];
    panel.textContent = "";
    var head = document.createElement("h3");
    head.textContent = lines ? code : "Nothing known there";
    panel.appendChild(head);
    (lines || ["Click a place, a piece or a seat's row to see what your report knows of it."]).forEach(function (text) {
      var p = document.createElement("p");
      p.textContent = text;
      panel.appendChild(p);
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-seat]"), function (row) {
    row.addEventListener("click", function () { details(row.getAttribute("data-seat")); });
  });

  // ---- The turn file: the check as you type, the secret only when it goes ----
  function withSecret(text) {
    var given = secret.value.trim();
    if (!given || /\s/.test(given)) return text;
    return text.replace(/^(\s*PASSWORD[ \t]+)<your secret>[ \t]*$/im, function (all, head) { return head + given; });
  }

  function checkNow() {
    // Until the secret is given, the orders are checked as if it were: it goes in at sending.
    var text = withSecret(box.value), waiting = text.replace(/^(\s*PASSWORD[ \t]+)<your secret>[ \t]*$/im, "$1(secret)");
    $("secret-note").textContent = waiting !== text ? "Give your secret below before you copy or mail the file." : "";
    var result = KIT.check(data.report, waiting);
    var list = $("findings");
    list.textContent = "";
    var said = result.refusal ? [["refused", result.refusal]] :
      result.problems.map(function (p) { return ["line " + p[0], p[1]]; });
    $("verdict").textContent = result.refusal ? "This file would be refused:" :
      said.length ? said.length + (said.length === 1 ? " problem" : " problems") + " the report can settle:" :
      "No problem the report can settle. The GM's check settles the rest when the file arrives.";
    said.forEach(function (p) {
      var item = document.createElement("li");
      item.textContent = p[0] + ": " + p[1];
      list.appendChild(item);
    });
    listOrders(result.lines);
  }

  // ---- The builder: an order word's form, its choices from the seat's position ----
  var grammar = data.report.grammar, picked = null;

  function choices(argument, chosen) {
    // The places beside an earlier choice first (a move's target beside its start), then the
    // offered values (the seat's own, or the map's way of writing them), then the others of the
    // fact unless the offer is the fact written another way (a road's two spellings).
    var offered = (grammar.facts[argument.offer] || []), rest = (grammar.facts[argument.fact] || []);
    if (offered.length && argument.offer !== argument.fact && rest.length === 2 * offered.length) rest = [];
    var beside = argument.beside >= 0 && chosen[argument.beside] ? (grammar.next_to || {})[chosen[argument.beside]] || [] : [];
    var seen = {}, out = [];
    beside.concat(offered, rest).forEach(function (v) { if (!seen[v]) { seen[v] = true; out.push(v); } });
    return out;
  }

  function fill(select, argument, values) {
    var kept = select.value;
    select.textContent = "";
    var blank = document.createElement("option");
    blank.value = "";
    blank.textContent = argument.optional ? "–" : "choose";
    select.appendChild(blank);
    values.forEach(function (v) {
      var option = document.createElement("option");
      option.value = option.textContent = v;
      select.appendChild(option);
    });
    select.value = values.indexOf(kept) >= 0 ? kept : "";
  }

  function chosenValues() {
    return Array.prototype.map.call(document.querySelectorAll(".builder-arg"), function (f) { return f.value; });
  }

  function reoffer() {
    var chosen = chosenValues();
    Array.prototype.forEach.call(document.querySelectorAll("select.builder-arg"), function (select) {
      var argument = picked.arguments[+select.name.slice(3)];
      if (argument.beside >= 0) fill(select, argument, choices(argument, chosen));
    });
  }

  function pick(word) {
    picked = word;
    var form = $("builder-fields");
    form.textContent = "";
    $("builder-usage").textContent = word.usage;
    word.arguments.forEach(function (argument, index) {
      var label = document.createElement("label"), field;
      label.textContent = argument.name + (argument.optional ? " (may be left out)" : "") + " ";
      var values = choices(argument, []);
      if (values.length) {
        field = document.createElement("select");
        fill(field, argument, values);
        field.addEventListener("change", reoffer);
      } else {
        field = document.createElement("input");
        field.type = "text";
        field.placeholder = argument.pattern === "-" ? "-" : argument.name;
        if (argument.pattern === "-") field.value = "-";
      }
      field.name = "arg" + index;
      field.className = "builder-arg";
      label.appendChild(field);
      form.appendChild(label);
    });
    Array.prototype.forEach.call(document.querySelectorAll(".word"), function (b) {
      b.setAttribute("aria-pressed", b.textContent === word.word ? "true" : "false");
    });
  }

  function built() {
    var values = Array.prototype.map.call(document.querySelectorAll(".builder-arg"), function (f) { return f.value.trim(); });
    while (values.length && !values[values.length - 1]) values.pop();
    // An empty field is written "-" (a word the rules read as nothing there, or the check's to
    // find), but an optional one whose pattern refuses "-" is left out: Minecraft EMPIRES' count
    // between a group and where it goes.
    var said = [];
    values.forEach(function (v, i) {
      var argument = picked.arguments[Math.min(i, picked.arguments.length - 1)];
      var dropped = argument.optional && argument.pattern && !new RegExp("^(?:" + argument.pattern + ")$", "i").test("-");
      if (v || !dropped) said.push(v || "-");
    });
    return [picked.word].concat(said).join(" ");
  }

  function bodyLines() {
    return box.value.split("\n");
  }

  function addOrder() {
    if (!picked) return;
    var lines = bodyLines(), end = -1;
    for (var i = lines.length - 1; i >= 0; i--) { if (/^\s*END\s*$/i.test(lines[i])) { end = i; break; } }
    if (end < 0) { lines.push(built(), "END"); } else { lines.splice(end, 0, built()); }
    box.value = lines.join("\n");
    checkNow();
  }

  function listOrders(orderLines) {
    var list = $("orders");
    if (!list) return;
    list.textContent = "";
    orderLines.forEach(function (line, index) {
      var item = document.createElement("li"), text = document.createElement("code");
      text.textContent = line[1];
      item.appendChild(text);
      [["↑", "Move up", -1], ["↓", "Move down", 1], ["✕", "Remove", 0]].forEach(function (b) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = b[0];
        button.title = b[1] + ": " + line[1];
        button.setAttribute("aria-label", b[1] + " " + line[1]);
        button.addEventListener("click", function () { move(orderLines, index, b[2]); });
        item.appendChild(button);
      });
      list.appendChild(item);
    });
  }

  function move(orderLines, index, step) {
    var lines = bodyLines(), here = orderLines[index][0] - 1;
    if (step === 0) { lines.splice(here, 1); }
    else {
      var other = orderLines[index + step];
      if (!other) return;
      var there = other[0] - 1, held = lines[here];
      lines[here] = lines[there];
      lines[there] = held;
    }
    box.value = lines.join("\n");
    checkNow();
  }

  if (grammar && grammar.words.length) {
    var words = $("builder-words");
    grammar.words.forEach(function (word) {
      if (grammar.now.indexOf(word.word) < 0) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "word";
      button.textContent = word.word;
      button.addEventListener("click", function () { pick(word); });
      words.appendChild(button);
    });
    $("builder-add").addEventListener("click", addOrder);
  }

  // ---- Sending: copy, or the player's own mail program (the secret goes, and stays nowhere) ----
  $("copy").addEventListener("click", function () {
    var text = withSecret(box.value);
    var done = function () { $("sent").textContent = "Copied. Paste it into a mail to " + data.house + "."; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { box.select(); document.execCommand("copy"); done(); });
    } else { box.select(); document.execCommand("copy"); done(); }
  });
  var mail = $("mail");
  if (mail) {
    mail.addEventListener("click", function () {
      var subject = "Orders " + data.report.game + " " + data.report.seat + " turn " + (data.report.turn + 1);
      mail.href = "mailto:" + encodeURIComponent(data.house).replace("%40", "@") + "?subject=" +
        encodeURIComponent(subject) + "&body=" + encodeURIComponent(withSecret(box.value));
    });
  }
  // The portal: the file goes in the address's fragment (#kit=...), which no browser sends to
  // a server; the portal's page puts it into its orders box once the player is signed in
  // (templates/web/handoff.js). The secret never goes: the portal knows the signed-in seat.
  var portal = $("portal");
  if (portal) {
    portal.addEventListener("click", function (event) {
      var fragment = encodeURIComponent(box.value);
      if (fragment.length > HANDOFF_MAX) {
        event.preventDefault();
        $("sent").textContent = "This file is too long to hand over by a link: copy it and paste it into the portal's orders box.";
        return;
      }
      portal.href = data.portal + "/#kit=" + fragment;
      $("sent").textContent = "Opened in the portal: sign in there, read the orders in the box, then press Submit.";
    });
  }
  box.addEventListener("input", checkNow);
  secret.addEventListener("input", checkNow);
  $("reset").addEventListener("click", function () { box.value = data.form; checkNow(); });
  details(null);
  checkNow();
})();
