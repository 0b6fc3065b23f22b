/* The sign-in page's one retry, served without the token. The session cookie is SameSite=Strict,
   so a link from another site (Home Assistant's device page, a chat) arrives without it: load the
   page once more from here, where the browser sends it. The time of that retry, per page, stops a
   loop when there is no cookie. A wrong token (data-signin="wrong") is not retried. */
'use strict';
(function () {
  var key = 'noiseclock-signin-retry:' + location.pathname;
  var last = Number(sessionStorage.getItem(key)) || 0;
  if (document.body.dataset.signin !== 'wrong' && Date.now() - last > 10000) {
    sessionStorage.setItem(key, String(Date.now()));
    location.replace(location.pathname + location.search);
    return;
  }
  // A wrong token stays out of the address bar and the history.
  if (location.search.indexOf('token=') >= 0) history.replaceState(null, '', location.pathname);
  // The form stays: nothing reloads this page any more (the browser tests wait for this mark).
  document.body.dataset.signinStays = 'true';
})();
