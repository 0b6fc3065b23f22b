/* Sleep programmes (v1.1): what routines.html, timers.html and the noise page's Mixes section
   share. Loaded after app.js; talks to the node only through NC.post() and NC.state. */
'use strict';

const NP = (() => {
  const { el, t, $ } = NC;

  /* The noise sounds and mixes as <option>s of a select, keeping its choice. */
  function soundOptions(select, withMixes) {
    const current = select.value || select.dataset.want; // data-want: the choice made before the sounds were known
    const noise = (NC.state.sounds && NC.state.sounds.noise) || [];
    select.textContent = '';
    noise.filter((x) => withMixes || x.category !== 'mix').forEach((x) => select.append(el('option', {
      value: x.id, text: x.category === 'mix' ? x.name + ' (' + t('mix') + ')' : NC.soundName(x) })));
    // v1.3: the radio stations, where mixes are taken too (a routine's sound; never a mix's layer).
    const radio = (withMixes && NC.state.sounds && NC.state.sounds.radio) || [];
    if (radio.length) select.append(el('optgroup', { label: t('radio') }, radio.map((x) => el('option', { value: x.id, text: NC.soundName(x) }))));
    if (current) select.value = current;
    if (!select.value && select.options.length) select.selectedIndex = 0;
  }
  function soundName(id) {
    const s = NC.state.sounds || {};
    const all = [].concat(s.noise || [], s.alarm || [], s.radio || []);
    const found = all.find((x) => x.id === id);
    return found ? NC.soundName(found) : id === 'none' ? t('silent') : id;
  }
  /* Seconds left until an ISO moment, on the node's clock (its epoch anchor), never the browser's. */
  function secondsUntil(iso, most) {
    const now = NC.nodeEpoch();
    const end = Date.parse(iso);
    if (now === null || isNaN(end)) return null;
    // The anchor may trail the node by up to its last whole second: never more left than the whole.
    return Math.min(most || Infinity, Math.max(0, Math.ceil(end / 1000 - now)));
  }
  function countdown(seconds) {
    if (seconds === null) return '';
    const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    return (h ? h + ':' + NC.pad(m) : String(m)) + ':' + NC.pad(s);
  }
  /* A lower-case id made of a name: a-z 0-9 _, else a fallback. */
  function slug(name, fallback) {
    const s = String(name || '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48);
    return s || fallback;
  }

  /* The noise page's Mixes section: the list (with Delete) and a form of 2-4 layers (mix/set). */
  function mixes(section) {
    const list = $('#mix-list', section);
    const form = $('#mix-form', section);
    const layers = $('#mix-layers', section);
    const err = $('#mix-error', section);
    function layerRow(i, value) {
      const id = 'mix-l' + i;
      const select = el('select', { id, name: 'layer_sound' });
      soundOptions(select, false);
      if (value) select.value = value.sound;
      if (!select.value && select.options.length) select.selectedIndex = 0;
      const out = el('output', { for: id + 'v', text: String(value ? value.volume : 100) });
      const range = el('input', { id: id + 'v', type: 'range', name: 'layer_volume', min: 0, max: 100, value: value ? value.volume : 100,
        oninput: () => { out.value = range.value; } });
      return el('div', { class: 'layer', 'data-nc': 'mix-layer' },
        el('div', { class: 'field' }, el('label', { for: id, text: t('layer', { n: i + 1 }) }), select),
        el('div', { class: 'field' }, el('label', { for: id + 'v' }, el('span', { text: t('layer_volume', { n: i + 1 }) }), ' ', out), range),
        i >= 2 ? el('button', { type: 'button', class: 'btn', text: t('remove'), 'aria-label': t('remove') + ' ' + t('layer', { n: i + 1 }),
          onclick: () => { const all = read(); all.splice(i, 1); drawLayers(all); } }) : null);
    }
    function read() {
      return [...layers.querySelectorAll('.layer')].map((row) => ({
        sound: row.querySelector('select').value, volume: Number(row.querySelector('input[type=range]').value) }));
    }
    function drawLayers(values) {
      layers.textContent = '';
      values.forEach((v, i) => layers.append(layerRow(i, v)));
      $('#mix-add-layer', section).hidden = values.length >= 4;
    }
    function drawList() {
      const all = ((NC.state.sounds && NC.state.sounds.noise) || []).filter((x) => x.category === 'mix');
      list.textContent = '';
      if (!all.length) list.append(el('p', { class: 'note', text: t('no_mixes') }));
      all.forEach((m) => {
        const e = el('p', { class: 'error', hidden: true });
        list.append(el('div', { class: 'row', 'data-nc': 'mix-row', 'data-id': m.id },
          el('div', { class: 'name' }, el('b', { text: m.name }),
            el('small', { class: 'note', text: (m.layers || []).map((l) => soundName(l.sound) + ' ' + l.volume).join(' + ') })),
          el('button', { type: 'button', class: 'btn danger', text: t('delete'), 'aria-label': t('delete') + ': ' + m.name,
            onclick: async () => { if (confirm(t('confirm_delete_mix', { l: m.name }))) NC.report(e, await NC.post('mix/delete', m.id)); } }),
          e));
      });
      if (!NC.state.sounds) return;
      if (!layers.children.length) drawLayers([{ sound: 'brown', volume: 100 }, { sound: 'rain', volume: 60 }]);
      else drawLayers(read());
    }
    $('#mix-add-layer', section).addEventListener('click', () => {
      const all = read(); all.push({ sound: 'pink', volume: 50 }); drawLayers(all);
    });
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const name = form.mix_name.value.trim();
      const body = { id: slug(name, 'mix_' + Date.now() % 100000), name: name || undefined, layers: read() };
      const answer = await NC.post('mix/set', body);
      NC.report(err, answer);
      if (answer.ok) form.mix_name.value = '';
    });
    NC.on('sounds', drawList);
    NC.on('node', drawList);
    drawList();
  }

  return { soundOptions, soundName, secondsUntil, countdown, slug, mixes };
})();
