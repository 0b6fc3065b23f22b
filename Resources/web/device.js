/* The device page's own script (device.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
(() => {
  const { el, t, $ } = NC;
  NC.topbar('device');
  const status = (good, text) => [el('span', { class: 'dot ' + (good ? 'good' : 'bad') }), text];
  function set(id, ...content) { const d = $('#' + id); d.textContent = ''; d.append(...content.flat(Infinity)); }
  let linkUp = true;
  let shaker = null;
  NC.on('alarm/event', (ev) => {
    if (ev && (ev.event === 'shaking' || (ev.event === 'failed' && ev.reason === 'shaker_unconfirmed'))) shaker = ev;
  });
  function draw() {
    const s = NC.state;
    const w = NC.nodeWall();
    if (w) set('time', NC.display(w, Object.assign({}, s.style, { show_seconds: true })) + (NC.ampm(w) ? ' ' + NC.ampm(w) : '') + (s.time ? ' · ' + s.time.date : ''));
    const online = s.availability === 'online';
    const health = s.health;
    const mqtt = health ? health.mqtt === 'connected' : online;
    set('mqtt', status(mqtt, t(mqtt ? 'connected' : 'not_connected')));
    if (s.audio) {
      const ok = s.audio.status === 'ok';
      // v1.4: underruns since the node started (each an audible click); shown when there were any.
      const clicks = s.audio.underruns > 0 ? [el('br'), el('small', { class: 'note', 'data-nc': 'underruns', text: t('underruns') + ': ' + s.audio.underruns })] : [];
      // The device's name is the owner's; ALSA's own words only behind "Details", with where to choose another.
      const why = ok ? [] : NC.detailed(el('div', { class: 'note', 'data-nc': 'audio-why' }), t('nothing_heard'),
        ['/settings#h-s_sound', t('choose_speaker')], s.audio.error || '');
      set('audio', status(ok, t(ok ? 'ok' : 'unavailable')), el('br'),
        el('small', { class: 'note' }, t('output') + ': ', el('span', { 'data-user': '', text: s.audio.device })), why, clicks);
    }
    const b = s.battery;
    if (b) set('battery', b.present ? [status(b.color !== 'red', b.level + '%'), ' · ' + t(b.status)] : t('on_ac'));
    const l = s.light;
    if (l) {
      const what = l.state === 'ON' ? l.brightness + '%' + (l.color ? ' · ' + l.color : l.kelvin ? ' · ' + l.kelvin + ' K' : '') : t('off');
      // confirmed: null without devices.light, false until the lamp answers, then true.
      if (l.confirmed === null) {
        set('lamp', what, NC.detailed(el('div', { class: 'note', 'data-nc': 'no-lamp' }), t('no_lamp'), ['/settings#h-s_devices', t('open_settings')],
          'devices.light: —'));
      }
      else set('lamp', status(l.confirmed, what), ' · ' + t(l.confirmed ? 'confirmed' : 'unconfirmed'));
    }
    // The shaker's word comes as alarm events: the last one seen since this page opened.
    if (shaker) set('shaker', status(shaker.event === 'shaking', t(shaker.event === 'shaking' ? 'shaking' : 'shaker_unconfirmed')), ' · ' + NC.when(shaker.at));
    else set('shaker', t('no_ring_yet'));
    set('link', status(linkUp, t(linkUp ? 'live' : 'disconnected')));
    drawCustomSounds(s.sounds);
    if (s.node) {
      set('node_id', el('span', { 'data-user': '', text: s.node.node_id })); set('version', s.node.version);
      set('timezone', s.node.timezone); set('locale', t('lang_' + s.node.locale) === 'lang_' + s.node.locale ? s.node.locale : t('lang_' + s.node.locale));
    }
  }
  /* Each file in sounds_dir: its name, length (h:mm:ss) and format, following ~/sounds live. */
  function drawCustomSounds(sounds) {
    const list = $('#custom_sounds');
    const custom = ((sounds && sounds.noise) || []).filter((x) => x.category === 'custom');
    // A <dl> holds dt/dd pairs only (axe: definition-list), so "none" is a paragraph instead.
    const rows = custom.flatMap((x) => {
      const s = Math.round(x.seconds || 0);
      const length = Math.floor(s / 3600) + ':' + String(Math.floor(s / 60) % 60).padStart(2, '0') + ':' + String(s % 60).padStart(2, '0');
      return [el('dt', { 'data-user': '', text: x.name }), el('dd', { text: length + ' · ' + (x.format || '') })];
    });
    const body = rows.length ? el('dl', { class: 'facts' })
      : NC.detailed(el('div', { class: 'note' }), t('no_custom_sounds'), ['/settings#h-s_sound', t('open_settings')], 'audio.sounds_dir');
    if (rows.length) body.append(...rows);
    list.textContent = '';
    list.append(body);
  }
  async function health() {
    try { const r = await fetch('/healthz', { cache: 'no-store' }); NC.state.health = await r.json(); } catch (e) { NC.state.health = null; }
    draw();
  }
  /* The say box: ~/say with the text (and a volume when given); the answer is what was said and how long, or the refusal. */
  $('#say-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = $('#say-text').value;
    const volume = $('#say-volume').value.trim();
    $('#say').disabled = true;
    $('#say-result').textContent = '';
    const answer = await NC.post('say', volume === '' ? { text } : { text, volume: Number(volume) });
    $('#say').disabled = false;
    NC.report($('#say-error'), answer);
    if (answer.ok && answer.result) $('#say-result').textContent = t('said', { t: answer.result.text, s: answer.result.seconds });
  });
  NC.on('*', draw);
  NC.on('link', (up) => { linkUp = up; health(); });
  setInterval(draw, 1000);
  setInterval(health, 15000);
  NC.start().then(health);
})();
