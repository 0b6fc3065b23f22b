/* The clock face: drawn from every ClockStyle field, ticking on the node's clock (see app.js).
   Face(root, {hooks}) builds into root; with hooks the elements carry the data-nc attributes
   the tests use (the real face), without them it is a preview (the style page). */
'use strict';

function Face(root, opts) {
  const hooks = !!(opts && opts.hooks);
  const { el, t } = NC;
  const hook = (name) => (hooks ? name : null);
  const BAND = { green: '#34C759', yellow: '#FFCC00', orange: '#FF9500', red: '#FF3B30' };

  const time = el('div', { class: 'time', 'data-nc': hook('time'), role: hooks ? 'timer' : null, 'aria-live': 'off' });
  const ampmEl = el('span', { class: 'ampm', 'data-nc': hook('ampm') });
  const clock = el('div', { class: 'clock' }, time);
  const dateEl = el('span', { class: 'date', 'data-nc': hook('date') });
  const battery = el('span', { class: 'battery', 'data-nc': hook('battery') });
  const nextEl = el('span', { class: 'next', 'data-nc': hook('next-alarm') });
  const top = el('div', { class: 'overlay top' });
  const bottom = el('div', { class: 'overlay bottom' });
  const stage = el('div', { class: 'stage' }, clock);
  root.classList.add('face');
  root.append(top, stage, bottom);
  let style = {};
  let shown = '';

  function place(child, parent, show, before) {
    if (show && child.parentNode !== parent) {
      if (before && before.parentNode === parent) parent.insertBefore(child, before); else parent.append(child);
    } else if (!show && child.parentNode) child.remove();
  }

  /* Cells: one per character, digits in fixed-width cells, so nothing moves as they change. */
  function drawTime(text) {
    if (text === shown) return;
    const seconds = !!style.show_seconds;
    if (time.childNodes.length !== text.length || time.dataset.sec !== String(seconds)) {
      time.textContent = '';
      let colons = 0;
      for (const ch of text) {
        if (ch === ':') colons++;
        time.append(el('span', { class: 'c ' + (ch === ':' ? 'k' : 'd') + (seconds && colons === 2 ? ' s' : '') }));
      }
      time.dataset.sec = String(seconds);
    }
    for (let i = 0; i < text.length; i++) if (time.childNodes[i].textContent !== text[i]) time.childNodes[i].textContent = text[i];
    shown = text;
  }

  function fit() {
    const w = stage.clientWidth, h = stage.clientHeight;
    if (!w || !h) return;
    // The widest this format can get: four digits, a colon, maybe seconds at .45 and AM/PM.
    let em = 4 * 0.62 + 0.34;
    if (style.show_seconds) em += 0.45 * (0.34 + 2 * 0.62);
    if (ampmEl.parentNode) em += 0.62;
    let size = Math.min((w * 0.96) / em, h / 1.08);
    if (style.auto_fit === false) size *= Math.max(5, style.scale === undefined ? 100 : style.scale) / 100;
    clock.style.fontSize = Math.max(8, Math.floor(size)) + 'px';
    const o = Math.max(13, Math.min(root.clientWidth, root.clientHeight) * 0.05);
    root.style.setProperty('--ov', Math.min(o, 34) + 'px');
  }

  /* v1.2: during a sunrise or a routine with a light, the real face is a lamp (style
     face_light): its background is ~/light's colour (or white of its kelvin) at its brightness. */
  function kelvinRGB(kelvin) {
    // Tanner Helland's fit of the Planckian locus, good to a few percent from 1000 K to 10000 K.
    const t = Math.max(1000, Math.min(10000, kelvin)) / 100;
    const r = t <= 66 ? 255 : 329.698727446 * Math.pow(t - 60, -0.1332047592);
    const g = t <= 66 ? 99.4708025861 * Math.log(t) - 161.1195681661 : 288.1221695283 * Math.pow(t - 60, -0.0755148492);
    const b = t >= 66 ? 255 : t <= 19 ? 0 : 138.5177312231 * Math.log(t - 10) - 305.0447927307;
    return [r, g, b].map((c) => Math.max(0, Math.min(255, c)));
  }
  function lampColor(light) {
    if (!hooks || style.face_light === false || !light || light.state !== 'ON') return null;
    if (light.source !== 'sunrise' && light.source !== 'routine') return null;
    const hex = /^#[0-9A-Fa-f]{6}$/.test(light.color || '') ? light.color : null;
    const rgb = hex ? [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) : kelvinRGB(light.kelvin || 4000);
    const k = Math.max(0, Math.min(100, light.brightness || 0)) / 100;
    return '#' + rgb.map((c) => Math.round(c * k).toString(16).padStart(2, '0')).join('');
  }
  function applyBackground() {
    const lamp = lampColor(NC.state.light);
    root.style.background = lamp || style.background_color || '#000000';
    if (hooks) root.dataset.lamp = lamp || '';
  }

  function applyStyle(st) {
    style = st || {};
    const digit = style.digit_color || '#FFFFFF';
    applyBackground();
    root.style.color = digit;
    time.style.color = digit;
    clock.style.opacity = (style.digit_opacity === undefined ? 100 : style.digit_opacity) / 100;
    root.style.setProperty('--overlay', (style.overlay_opacity === undefined ? 50 : style.overlay_opacity) / 100);
    const g = (style.glow || 0) / 100;
    const alpha = (a) => digit + Math.round(Math.max(0, Math.min(1, a)) * 255).toString(16).padStart(2, '0');
    time.style.textShadow = g > 0
      ? `0 0 ${(0.015 + 0.03 * g).toFixed(3)}em ${alpha(0.35 + 0.5 * g)}, 0 0 ${(0.06 + 0.18 * g).toFixed(3)}em ${alpha(0.15 + 0.45 * g)}`
      : 'none';
    const f = NC.font(style);
    clock.style.fontFamily = f.family;
    clock.style.fontWeight = f.weight;
    shown = '';
    tick();
    fit();
  }

  let drawn = '';
  function overlays() {
    const s = NC.state;
    const w = NC.nodeWall();
    const a = w ? NC.ampm(w, style) : null;
    // Called every second: touch the page only when something shown changes.
    const key = JSON.stringify([a, s.time && s.time.date, s.battery, s.alarm && s.alarm.next, style, NC.lang(), w && w.day]);
    if (key === drawn) return;
    drawn = key;
    if (a) ampmEl.textContent = a;
    const hadAmpm = !!ampmEl.parentNode;
    place(ampmEl, clock, !!a);
    if (hadAmpm !== !!a) fit();
    const date = s.time && s.time.date;
    dateEl.textContent = date || '';
    place(dateEl, top, style.show_date !== false && !!date, battery);
    const b = s.battery;
    const showBattery = style.show_battery !== false && b && b.present;
    if (showBattery) drawBattery(b);
    place(battery, top, !!showBattery);
    const next = s.alarm && s.alarm.next;
    if (next) {
      nextEl.textContent = '';
      nextEl.append(bell(), el('span', { text: NC.when(next.at) }), next.label ? el('span', { class: 'label', text: next.label }) : null);
    }
    place(nextEl, bottom, !!next);
  }

  function bell() {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = '<path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"/>';
    return svg;
  }
  function drawBattery(b) {
    const level = Math.max(0, Math.min(100, b.level || 0));
    const band = BAND[b.color] || BAND.green;
    battery.textContent = '';
    battery.setAttribute('aria-label', t('battery') + ' ' + level + '%' + (b.charging ? ', ' + t('charging') : ''));
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 28 14');
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = `<rect x="0.75" y="0.75" width="23.5" height="12.5" rx="3" fill="none" stroke="currentColor" stroke-width="1.5"/>` +
      `<rect x="25.5" y="4.5" width="2" height="5" rx="1" fill="currentColor"/>` +
      `<rect x="2.5" y="2.5" width="${(20 * level / 100).toFixed(1)}" height="9" rx="1.5" fill="${band}"/>` +
      (b.charging ? '<path d="M13.5 1.5 8.5 7.6h3.6l-1.6 4.9 5-6.1h-3.6z" fill="currentColor" stroke="#000" stroke-width=".6"/>' : '');
    battery.append(el('span', { text: level + '%' }), svg);
  }

  let timer = null;
  function tick() {
    const w = NC.nodeWall();
    if (w) {
      drawTime(NC.display(w, style));
      overlays();
    }
    clearTimeout(timer);
    // Wake just after the node's next boundary: each second with seconds shown, else each minute.
    const left = w ? (style.show_seconds ? 1 : 60 - w.s) - w.frac : 0.5;
    timer = setTimeout(tick, Math.max(20, left * 1000 + 8));
  }

  NC.on('style', applyStyle);
  NC.on('light', applyBackground);
  NC.on('time', (p) => {
    if (p && p.display) drawTime(p.display);
    overlays();
    tick();
  });
  NC.on('battery', overlays);
  NC.on('alarm', overlays);
  NC.on('node', overlays);
  const resized = new ResizeObserver(fit);
  resized.observe(root);
  resized.observe(stage); // the stage alone shrinks when a line joins the column (a warning, Snooze and Dismiss)
  if (NC.state.style) applyStyle(NC.state.style);
  tick();
  return { applyStyle, fit, get style() { return style; } };
}
