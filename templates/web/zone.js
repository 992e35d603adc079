/* The portal's time-zone script: the browser's own time zone, offered where a zone is asked for (the
   sign-in forms send it; the seat page offers it when it differs from the zone chosen). Every
   page works without it: times are then in UTC until the player types or picks a zone. */
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone) {
    return;
  }
  document.querySelectorAll("input.browser-zone").forEach(function (input) {
    input.value = zone;
  });
  var offer = document.getElementById("zone-guess");
  if (offer && offer.dataset.current !== zone) {
    offer.querySelector("input[name=zone]").value = zone;
    offer.querySelector(".guess").textContent = zone;
    offer.hidden = false;
  }
}());
