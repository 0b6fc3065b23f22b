/* The index page's own script (index.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
(() => {
  const root = document.getElementById('face');
  Face(root, { hooks: true });
  const ring = document.getElementById('ring');
  root.append(ring); // in the face's column: the digits make room for the buttons
  const snooze = document.querySelector('[data-nc="snooze"]');
  const dismiss = document.querySelector('[data-nc="dismiss"]');
  const stateEl = document.querySelector('[data-nc="alarm-state"]');
  const error = document.getElementById('ring-error');

  function drawAlarm(a) {
    const s = (a && a.state) || 'idle';
    // The state in words for a screen reader; the raw state stays in data-state (the tests read it).
    stateEl.dataset.state = s;
    stateEl.textContent = NC.t('state_' + s);
    const active = s === 'ringing' || s === 'snoozed';
    ring.hidden = !active;
    snooze.hidden = dismiss.hidden = !active;
    document.body.classList.toggle('ringing', s === 'ringing');
    document.body.classList.toggle('alarm-active', active);
    document.getElementById('ring-title').textContent = active ? (a.label || NC.t('ringing')) : '';
    document.getElementById('ring-sub').textContent = s === 'snoozed' ? NC.t('snoozed', { t: NC.clockOf(a.snooze_until) }) : '';
    if (!active) { NC.report(error, null); failed.hidden = true; }
  }
  /* The failsafe (v1.1): the node says whether the alarm is really heard. */
  const failed = document.getElementById('ring-failed');
  NC.on('alarm/event', (ev) => {
    if (!ev || typeof ev !== 'object') return;
    if (ev.event === 'failed') {
      failed.textContent = '';
      // The node's own English only behind "Details" on a Korean face.
      if (ev.error && NC.lang() === 'ko') NC.detailed(failed, NC.t('not_heard'), null, ev.error);
      else failed.textContent = NC.t('not_heard') + (ev.error ? ' (' + ev.error + ')' : '');
      failed.hidden = false;
    }
    if (ev.event === 'sounding' || ev.event === 'dismissed') failed.hidden = true;
  });
  NC.on('alarm', drawAlarm);
  NC.on('node', () => drawAlarm(NC.state.alarm));
  const act = (command) => async (ev) => {
    ev.stopPropagation();
    const answer = await NC.post(command, '');
    NC.report(error, answer);
    if (answer.ok && answer.result && answer.result.state) NC.put('alarm', answer.result);
  };
  /* "Speak the time" (v1.2): ~/speak/time; what the node said (or why not) shows for a few seconds. */
  const spoken = document.getElementById('spoken');
  let unsay = null;
  document.getElementById('speak').addEventListener('click', async (ev) => {
    ev.stopPropagation();
    const answer = await NC.post('speak/time', '');
    if (answer.ok && answer.result) spoken.textContent = answer.result.text;
    else NC.explain(spoken, answer.error);
    spoken.dataset.ok = String(!!answer.ok);
    spoken.hidden = false;
    clearTimeout(unsay);
    unsay = setTimeout(() => { spoken.hidden = true; }, 6000);
  });
  snooze.addEventListener('click', act('alarm/snooze'));
  dismiss.addEventListener('click', act('alarm/dismiss'));

  /* A tap goes full screen (and back); the Speak chip shows for a few seconds after (Settings always). */
  const chrome = document.getElementById('chrome');
  let hide = null;
  function wake() {
    document.body.classList.add('awake');
    clearTimeout(hide);
    hide = setTimeout(() => document.body.classList.remove('awake'), 4000);
  }
  root.addEventListener('click', () => {
    wake();
    const d = document;
    if (!d.fullscreenElement && d.documentElement.requestFullscreen) d.documentElement.requestFullscreen().catch(() => {});
    else if (d.fullscreenElement && d.exitFullscreen) d.exitFullscreen().catch(() => {});
  });
  document.addEventListener('pointermove', wake);
  document.addEventListener('keydown', (e) => {
    wake();
    if ((e.key === 'f' || e.key === 'Enter') && e.target === document.body) root.click();
  });
  wake();

  /* The Settings chip, always shown: a grey at least 3:1 against the face's background (the lamp's
     colour or the style's), else black or white, whichever stands out more. */
  function chipInk() {
    const rgb = ((root.style.backgroundColor || 'rgb(0, 0, 0)').match(/\d+(\.\d+)?/g) || [0, 0, 0]).slice(0, 3)
      .map((v) => Math.round(Number(v)).toString(16).padStart(2, '0'));
    const bg = '#' + rgb.join('');
    const ink = NC.contrast('#767676', bg) >= 3.5 ? '#767676' : NC.contrast('#000000', bg) > NC.contrast('#ffffff', bg) ? '#000000' : '#ffffff';
    document.body.style.setProperty('--chip-ink', ink);
  }
  NC.on('style', chipInk);
  NC.on('light', chipInk);
  chipInk();

  /* keep_awake: the Screen Wake Lock (needs a secure context: https or localhost). */
  let lock = null;
  async function keepAwake() {
    const want = !!(NC.state.style && NC.state.style.keep_awake);
    if (want && !lock && navigator.wakeLock && document.visibilityState === 'visible') {
      try { lock = await navigator.wakeLock.request('screen'); lock.addEventListener('release', () => { lock = null; }); } catch (e) { lock = null; }
    } else if (!want && lock) { lock.release().catch(() => {}); lock = null; }
    document.body.dataset.wakeLock = lock ? 'held' : (want ? 'wanted' : 'off');
  }
  NC.on('style', keepAwake);
  document.addEventListener('visibilitychange', keepAwake);

  const linkState = document.getElementById('link-state');
  root.append(linkState); // a line of its own at the foot of the face's column, after the next alarm
  function drawLink(up) {
    const offline = NC.state.availability === 'offline';
    linkState.hidden = up !== false && !offline;
    linkState.textContent = up === false ? NC.t('disconnected') : NC.t('offline');
  }
  NC.on('link', drawLink);
  /* The browser's own bars take the face's background (no bright strip at night). */
  NC.on('style', (st) => { document.querySelector('meta[name=theme-color]').content = st.background_color || '#000000'; });
  NC.on('availability', () => drawLink(true));

  /* Readiness (v1.2): a quiet line when the next alarm might not be heard; the problems in the
     node's own words on hover and for screen readers. */
  const readyWarning = document.getElementById('ready-warning');
  // Where each problem is mended: the speaker in Settings, the alarm's sound on Alarms, a station on Radio, the rest on Device.
  const FIX = { audio_unavailable: '/settings#h-s_sound', sound_unplayable: '/alarms', stream_unreachable: '/radio',
    light_unconfirmed: '/settings#h-s_devices', shaker_unconfirmed: '/settings#h-s_devices' };
  readyWarning.addEventListener('click', (ev) => ev.stopPropagation()); // its link, not a tap for full screen
  root.insertBefore(readyWarning, root.querySelector('.overlay.top')); // a line of its own above the date
  NC.on('alarm', (a) => {
    const ready = a && a.ready;
    const problems = ready && !ready.ok ? (ready.problems || []) : [];
    readyWarning.hidden = problems.length === 0;
    // Safe mode (v1.4) says itself: the owner has something to mend, not only a risk to hear of.
    const safe = problems.some((p) => p.code === 'safe_mode');
    // Why, in a person's words (the first problem), and a link to where it is mended (issue 41).
    const first = problems[0] || {};
    const why = NC.t('r_' + first.code) === 'r_' + first.code ? NC.t('r_other') : NC.t('r_' + first.code);
    readyWarning.textContent = '';
    if (problems.length) {
      readyWarning.append(NC.el('span', { class: 'why', text: safe ? NC.t('safe_mode') : NC.t('ready_why', { w: why }) }), ' ',
        NC.el('a', { href: FIX[first.code] || '/device', 'data-nc': 'ready-fix', text: NC.t('fix_it') }));
    }
    readyWarning.title = problems.map((p) => p.message).join('\n');
    readyWarning.dataset.codes = problems.map((p) => p.code).join(' ');
  });
  /* First start (v1.4): until the wizard is finished once, "Set up this clock" (a link to /setup) on a
     line of its own below the readiness warning; a node with no working sound device and no alarm
     opens the wizard itself. */
  const setup = document.getElementById('setup');
  root.insertBefore(setup, root.querySelector('.overlay.top'));
  setup.addEventListener('click', (ev) => ev.stopPropagation()); // a link, not a tap for full screen
  let sentToSetup = false;
  function drawSetup() {
    const node = NC.state.node || {}, audio = NC.state.audio, alarms = NC.state.alarms;
    setup.hidden = node.setup_done !== false;
    setup.textContent = NC.t('set_up');
    if (sentToSetup || node.setup_done !== false || !audio || !Array.isArray(alarms)) return;
    if (audio.status !== 'ok' && alarms.length === 0) { sentToSetup = true; location.replace('/setup'); }
  }
  NC.on('node', drawSetup);
  NC.on('audio', drawSetup);
  NC.on('alarms', drawSetup);
  /* Radio (v1.3): while the noise plays a station, its name and the stream's title (~/noise
     `station`, `title`) on a line of their own above the next alarm. */
  const nowPlaying = NC.el('p', { class: 'now-playing', 'data-nc': 'now-playing', hidden: true });
  root.insertBefore(nowPlaying, root.querySelector('.overlay.bottom'));
  function drawNowPlaying() {
    const n = NC.state.noise;
    const on = !!(n && n.playing);
    nowPlaying.hidden = !on;
    if (!on) { nowPlaying.textContent = ''; return; }
    if (!n.station) { drawNoise(n); return; }
    const station = (NC.state.stations || []).find((s) => s.id === n.station);
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = '<path fill="currentColor" d="M12 3v10.55A4 4 0 1 0 14 17V7h4V3h-6Z"/>';
    nowPlaying.textContent = '';
    nowPlaying.append(svg, NC.el('span', { class: 'text' }, NC.el('span', { class: 'visually-hidden', text: NC.t('now_playing') + ': ' }),
      NC.el('span', { 'data-nc': 'now-playing-station', text: station ? station.name : n.station }),
      n.title ? [' · ', NC.el('span', { 'data-nc': 'now-playing-title', text: n.title })] : null));
  }
  /* The noise (not a station) while it plays: its name, when its sleep timer stops it, and "not heard" when the
     speaker does not play it (mqtt-api v1.4). */
  function drawNoise(n) {
    const sounds = (NC.state.sounds && NC.state.sounds.noise) || [];
    const sound = sounds.find((x) => x.id === n.sound);
    const unheard = typeof n.error === 'string' && n.error.startsWith('audio_unavailable');
    nowPlaying.textContent = '';
    nowPlaying.append(NC.el('span', { class: 'text', 'data-nc': 'face-noise' },
      NC.t('face_noise', { s: sound ? NC.soundName(sound) : n.sound }),
      n.stops_at ? [' · ', NC.el('span', { 'data-nc': 'face-noise-stops', text: NC.t('stops_at', { t: NC.clockOf(n.stops_at) }) })] : null,
      unheard ? ' · ' + NC.t('face_unheard') : null));
  }
  NC.on('sounds', drawNowPlaying);
  NC.on('noise', drawNowPlaying);
  NC.on('stations', drawNowPlaying);
  NC.on('node', drawNowPlaying);
  NC.start();
})();
