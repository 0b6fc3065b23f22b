/* The style page's own script (style.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
(() => {
  const { el, t, $ } = NC;
  NC.topbar('style');
  const page = $('#page');
  const preview = Face($('#preview'), { hooks: false });
  const OPTIONS = {
    font_family: ['system', 'san_francisco', 'monaco', 'courier'].map((v) => [v, 'fam_' + v]),
    font_weight: ['ultra_light', 'thin', 'light', 'regular', 'medium', 'semibold', 'bold', 'heavy', 'black'].map((v) => [v, 'w_' + v]),
    font_design: ['default', 'serif', 'rounded', 'monospaced'].map((v) => [v, 'd_' + v]),
  };
  function drawOptions() {
    for (const name in OPTIONS) {
      const select = page.querySelector(`[name=${name}]`);
      const value = select.value;
      select.textContent = '';
      OPTIONS[name].forEach(([v, key]) => select.append(el('option', { value: v, text: t(key) })));
      if (value) select.value = value;
    }
  }
  let draft = {};
  function inputs() { return page.querySelectorAll('input[name], select[name]'); }
  function read(input) {
    if (input.type === 'checkbox') return input.checked;
    if (input.type === 'range') return Number(input.value);
    if (input.type === 'color') return input.value.toUpperCase();
    return input.value;
  }
  function drawContrast(st) {
    const ratio = NC.contrast(st.digit_color || '#FFFFFF', st.background_color || '#000000');
    const shown = Math.round(ratio * 100) / 100;
    const low = ratio < 4.5;
    $('#contrast').textContent = t('contrast', { r: String(+shown.toFixed(2)) });
    $('#contrast-dot').className = 'dot ' + (low ? 'bad' : 'good');
    const published = NC.state.style && NC.state.style.warnings && NC.state.style.digit_color === st.digit_color &&
      NC.state.style.background_color === st.background_color ? NC.state.style.warnings : [];
    $('#contrast-note').textContent = low ? (published[0] || t('contrast_low')) : t('contrast_ok');
    $('#contrast-note').className = low ? 'warn-text' : 'note';
  }
  function drawControls(st) {
    inputs().forEach((input) => {
      if (document.activeElement === input && input.type !== 'checkbox') return;
      const v = st[input.name];
      if (v === undefined) return;
      if (input.type === 'checkbox') input.checked = !!v; else input.value = v;
      const out = page.querySelector(`[data-out=${input.name}]`);
      if (out) out.value = v;
    });
    page.querySelector('[name=scale]').disabled = st.auto_fit !== false;
    page.querySelector('[name=show_ampm]').disabled = st.use_24_hour !== false;
    page.querySelector('[name=digit_color]').disabled = !!st.random_color;
  }
  function refresh() {
    const st = Object.assign({}, NC.state.style || {}, draft);
    drawControls(st);
    drawContrast(st);
    preview.applyStyle(st);
  }
  NC.on('style', (st) => {
    // A draft value the node now publishes has been applied; others (still being picked) stay.
    for (const k in draft) if (st[k] === draft[k]) delete draft[k];
    refresh();
  });
  NC.on('node', () => { drawOptions(); refresh(); });
  page.addEventListener('input', (e) => {
    const input = e.target;
    if (!input.name) return;
    draft[input.name] = read(input);
    const out = page.querySelector(`[data-out=${input.name}]`);
    if (out) out.value = input.value;
    drawContrast(Object.assign({}, NC.state.style || {}, draft));
    preview.applyStyle(Object.assign({}, NC.state.style || {}, draft));
  });
  page.addEventListener('change', async (e) => {
    const input = e.target;
    if (!input.name) return;
    const answer = await NC.post('style/set', { [input.name]: read(input) });
    NC.report($('#error'), answer);
    if (!answer.ok) { delete draft[input.name]; refresh(); }
  });
  page.querySelectorAll('[data-preset]').forEach((b) => b.addEventListener('click', async () => {
    NC.report($('#error'), await NC.post('style/preset', b.dataset.preset));
  }));
  /* Night as the node's preset has it is white on black; a sleeping room wants less light. */
  const DARK_ROOM = { digit_color: '#FF3B30', background_color: '#000000', glow: 0, digit_opacity: 35, overlay_opacity: 25, random_color: false };
  $('#dark-room').addEventListener('click', async () => { NC.report($('#error'), await NC.post('style/set', DARK_ROOM)); });
  drawOptions();
  NC.start();
})();
