/* The turn kit's hand-over (docs/turn-kit.md): the kit's "Open it in the portal" link carries
   the turn file in the address's fragment (#kit=...), which the browser never sends to a server.
   This script takes it out of the address at once, keeps it in the tab's sessionStorage while
   the player signs in, and puts it into the seat page's orders box. It only fills the box: the
   player reads the orders and presses Check or Submit (a form with the page's own token), so a
   link made by anyone else can never send orders. A file over HANDOFF_MAX characters is dropped,
   as the kit refuses to make one. */
(function () {
  "use strict";
  var KEY = "gm-kit-orders", HANDOFF_MAX = 60000, text = null;
  if (location.hash.indexOf("#kit=") === 0) {
    try {
      text = decodeURIComponent(location.hash.slice(5));
    } catch (error) {
      text = null;
    }
    history.replaceState(null, "", location.pathname + location.search);
    if (text !== null && text.length > HANDOFF_MAX) {
      text = null;
    }
    if (text !== null) {
      try {
        sessionStorage.setItem(KEY, text);
      } catch (error) { /* no storage: the box is filled if it is on this page */ }
    }
  }
  if (text === null) {
    try {
      text = sessionStorage.getItem(KEY);
    } catch (error) {
      return;
    }
  }
  if (!text) {
    return;
  }
  var box = document.getElementById("orders-text");
  if (box) {
    box.value = text;
    try {
      sessionStorage.removeItem(KEY);
    } catch (error) { /* nothing kept */ }
    var note = document.getElementById("from-kit");
    if (note) {
      note.hidden = false;
    }
    document.getElementById("orders").scrollIntoView();
    return;
  }
  var form = document.querySelector("form[action='/sign-in']");
  if (!form) {
    return;
  }
  var envelope = {};
  text.split(/\r?\n/).forEach(function (line) {
    var words = line.trim().split(/\s+/);
    if ((words[0] === "GAME" || words[0] === "PLAYER") && words.length === 2 && !(words[0] in envelope)) {
      envelope[words[0]] = words[1];
    }
  });
  var game = form.querySelector("input[name=game]"), seat = form.querySelector("input[name=seat]");
  if (envelope.GAME && !game.value) {
    game.value = envelope.GAME;
  }
  if (envelope.PLAYER && !seat.value) {
    seat.value = envelope.PLAYER;
  }
  var waiting = document.getElementById("kit-waiting");
  if (waiting) {
    waiting.hidden = false;
  }
}());
