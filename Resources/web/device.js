/* The device page's own script (device.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
(() => {
  const { el, t, $ } = NC;
  NC.topbar('device');
  const status = (good, text) => [el('span', { class: 'dot ' + (good ? 'good' : 'bad') }), text];
  function set(id, ...content) { const d = $('#' + id); d.textContent = ''; d.append(...content.flat()); }
  let linkUp = true;
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
      set('audio', status(ok, t(ok ? 'ok' : 'unavailable')), el('br'), el('small', { class: 'note', text: t('output') + ': ' + s.audio.device + (s.audio.error ? ' — ' + s.audio.error : '') }));
    }
    const b = s.battery;
    if (b) set('battery', b.present ? [status(b.color !== 'red', b.level + '%'), ' · ' + t(b.status)] : t('on_ac'));
    set('link', status(linkUp, t(linkUp ? 'live' : 'disconnected')));
    drawCustomSounds(s.sounds);
    if (s.node) {
      set('node_id', s.node.node_id); set('version', s.node.version);
      set('timezone', s.node.timezone); set('locale', s.node.locale);
    }
  }
  /* Each file in sounds_dir: its name, length (h:mm:ss) and format, following ~/sounds live. */
  function drawCustomSounds(sounds) {
    const list = $('#custom_sounds');
    const custom = ((sounds && sounds.noise) || []).filter((x) => x.category === 'custom');
    const rows = custom.length ? custom.flatMap((x) => {
      const s = Math.round(x.seconds || 0);
      const length = Math.floor(s / 3600) + ':' + String(Math.floor(s / 60) % 60).padStart(2, '0') + ':' + String(s % 60).padStart(2, '0');
      return [el('dt', { text: x.name }), el('dd', { text: length + ' · ' + (x.format || '') })];
    }) : [el('dd', { class: 'note', text: t('no_custom_sounds') })];
    list.textContent = '';
    list.append(...rows);
  }
  async function health() {
    try { const r = await fetch('/healthz', { cache: 'no-store' }); NC.state.health = await r.json(); } catch (e) { NC.state.health = null; }
    draw();
  }
  NC.on('*', draw);
  NC.on('link', (up) => { linkUp = up; health(); });
  setInterval(draw, 1000);
  setInterval(health, 15000);
  NC.start().then(health);
})();
