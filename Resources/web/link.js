/* Talking to the node, on every page after clock.js: post() (POST /api/<command>, answering the
   Response JSON), the state (GET /api/state) and then the event stream (/api/events) into NC.put,
   the sign-in form in place on a 401, and NC.start(), which each page's script calls last. */
'use strict';

(() => {
  const { put, emit, t, lang, el, translate, followClock } = NC;

  async function post(command, body) {
    const plain = typeof body === 'string' || body === undefined || body === null;
    let response;
    try {
      response = await fetch('/api/' + command, {
        method: 'POST',
        headers: { 'Content-Type': plain ? 'text/plain; charset=utf-8' : 'application/json' },
        body: plain ? (body || '') : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch (e) {
      return { ok: false, error: { code: 'network', field: null, message: String(e.message || e) } };
    }
    if (response.status === 401) signedOut();
    try { return await response.json(); } catch (e) {
      return { ok: false, error: { code: 'http', field: null, message: 'HTTP ' + response.status } };
    }
  }

  let source = null;
  const TOPICS = ['availability', 'time', 'style', 'alarm', 'alarms', 'alarm/event', 'alarm/fired', 'noise',
    'sounds', 'battery', 'audio', 'node', 'routines', 'timers', 'timer/presets', 'response',
    'routine/event', 'timer/event', 'light', 'buttons', 'button/event', 'speech', 'stations'];
  async function loadState() {
    try {
      const r = await fetch('/api/state', { cache: 'no-store' });
      if (r.status === 401) { signedOut(); return; }
      const s = await r.json();
      if (s.node) put('node', s.node);
      Object.keys(s).forEach((k) => { if (k !== 'node') put(k, s[k]); });
    } catch (e) { /* the stream will retry */ }
  }
  /* A 401 from the API: this browser's session does not open the node (a new token, or a cookie of
     another page on this host shadowing ours). Show the sign-in form in place, with the sign-in
     page's look, and stop talking to the node. Never reload: a reload is one more wrong guess for
     the throttle each time, and while the page itself is let in it would loop (issue 31). The form
     loads this page with ?token=, which sets the cookie again. */
  let isSignedOut = false;
  function signedOut() {
    if (isSignedOut) return;
    isSignedOut = true;
    if (source) { source.close(); source = null; }
    document.querySelectorAll('link[rel=stylesheet]').forEach((link) => link.remove());
    document.head.append(el('link', { rel: 'stylesheet', href: '/signin.css' }));
    const hint = t('signin_hint').split('{c}');
    const input = el('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'current-password', required: true });
    const form = el('form', { method: 'get', action: location.pathname, 'data-nc': 'login-form' },
      el('h1', { text: t('signin_title') }),
      el('p', {}, t('signin_prompt') + ' ' + hint[0], el('code', { text: 'noiseclock web-url' }), hint[1] || ''),
      el('label', { for: 'token', text: t('token') }), input, el('button', { type: 'submit', text: t('open') }));
    document.documentElement.lang = lang();
    document.body.removeAttribute('class');
    document.body.removeAttribute('style');
    document.body.replaceChildren(el('main', {}, form));
    document.body.dataset.signin = 'ask';
    input.focus();
  }
  function connect() {
    if (isSignedOut) return;
    source = new EventSource('/api/events');
    TOPICS.forEach((topic) => source.addEventListener(topic, (ev) => {
      let payload = ev.data;
      if (topic !== 'availability') { try { payload = JSON.parse(ev.data); } catch (e) { /* plain text */ } }
      put(topic, payload);
    }));
    let lost = false;
    source.addEventListener('error', () => {
      lost = true;
      emit('link', false);
      // The browser retries by itself after a network error, but gives up for good after an
      // HTTP error (401 once the session is gone, 503 while the node is busy): retry by hand.
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(() => loadState().then(() => { if (!source) connect(); }), retryIn = Math.min(retryIn * 2, 30000));
      }
    });
    source.addEventListener('open', () => { retryIn = 1000; emit('link', true); if (lost) { lost = false; loadState(); } });
  }
  let retryIn = 1000;
  async function start() {
    translate();
    document.querySelectorAll('input[type=time]').forEach(followClock);
    await loadState();
    connect();
  }

  Object.assign(NC, { post, start });
})();
