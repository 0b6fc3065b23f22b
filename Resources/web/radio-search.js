/* The radio page's station search (radio.html, v1.4; http-api "Station directory"): searches the
   directory as you type (name, genre, country; 350 ms after the last key), lists what it found
   (name, country, codec, bit rate, genres) each with Add, which stores the station with its
   directory_id (station/add), tests it (station/test) and says what it heard. The directory down
   or off says so, and the typed-address form below still works. Starts the page (NC.start). */
'use strict';
(() => {
  const { el, $ } = NC;
  const { w, testLine, testDetail, testBox, wakeLink } = NC.radio;
  const form = $('#search');
  const status = $('#search-status');
  const list = $('#results');
  let found = null; // the last answer's stations, or null
  let sequence = 0; // only the newest search's answer is shown
  let timer = null;
  const added = {}; // directory_id → {pending, ok, text}: what Add did, kept across redraws

  function field(name) { return form.elements[name].value.trim(); }

  let said = { key: 'search_hint' }; // the status line, kept as words so a change of language redraws it
  function say(key, vars, isError, raw) {
    said = { key, vars, isError, raw };
    show();
  }
  function show() {
    status.textContent = said.raw || w(said.key, said.vars);
    status.className = said.isError ? 'error' : 'note';
  }

  async function search() {
    const q = field('q'), tag = field('tag'), country = field('country');
    const mine = ++sequence;
    if (!q && !tag && !country) { found = null; say('search_hint'); draw(); return; }
    if (country && !/^[A-Za-z]{2}$/.test(country)) { say('bad_country', null, true); return; }
    say('searching');
    const query = new URLSearchParams();
    if (q) query.set('q', q);
    if (tag) query.set('tag', tag);
    if (country) query.set('country', country);
    query.set('limit', '20');
    let response = null, answer = null;
    try {
      response = await fetch('/api/stations/search?' + query, { cache: 'no-store' });
      answer = await response.json();
    } catch (e) { /* the node or the directory is unreachable: said below */ }
    if (mine !== sequence) return; // a newer search went out meanwhile
    if (response && response.status === 200 && Array.isArray(answer)) {
      found = answer;
      say(found.length ? 'found' : 'found_none', { n: found.length });
    } else if (response && response.status === 404) {
      found = null;
      say('directory_off', null, true);
    } else if (response && response.status === 400) {
      const e = (answer && answer.error) || {};
      say('bad_country', null, true, e.field === 'country' ? null : NodeReplies.words(e));
      return;
    } else {
      found = null;
      say('directory_down', null, true);
    }
    draw();
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(search, 350);
  }

  /* Add: stored with its directory_id (an id made from the directory's when the name gives none),
     then tested; the answer stays under the row. */
  async function add(s) {
    added[s.directory_id] = { pending: true, text: w('adding') };
    draw();
    const body = { name: s.name, url: s.url, directory_id: s.directory_id };
    let answer = await NC.post('station/add', body);
    const e = answer.error || {};
    if (!answer.ok && e.field === 'id') {
      body.id = 'station-' + s.directory_id.toLowerCase().replace(/[^a-z0-9_-]/g, '').slice(0, 24);
      answer = await NC.post('station/add', body);
    }
    if (!answer.ok) {
      added[s.directory_id] = { ok: false, text: NodeReplies.words(answer.error) };
      draw();
      return;
    }
    added[s.directory_id] = { pending: true, text: w('added_testing') };
    draw();
    const test = await NC.post('station/test', answer.result.id);
    added[s.directory_id] = { ok: !!test.ok, text: w(test.ok ? 'added_ok' : 'added_failed', { r: testLine(test) }), detail: testDetail(test) };
    draw();
  }

  function row(s) {
    const stored = (NC.state.stations || []).find((x) => x.directory_id === s.directory_id);
    const mine = !!stored;
    const result = added[s.directory_id];
    const details = [s.country, s.codec, s.bitrate_kbps ? w('kbps', { n: s.bitrate_kbps }) : null].filter(Boolean).join(' · ');
    return el('div', { class: 'station', 'data-nc': 'search-result', 'data-id': s.directory_id },
      el('div', { class: 'what' }, el('b', { text: s.name }), details ? el('small', { text: details }) : null,
        s.tags && s.tags.length ? el('small', { text: s.tags.slice(0, 3).join(', ') }) : null),
      el('div', { class: 'tools' },
        el('button', { type: 'button', class: 'btn' + (mine ? '' : ' primary'), 'data-nc': 'search-add', text: w(mine ? 'already' : 'add_found'),
          'aria-label': w('add_label', { l: s.name }), disabled: mine || !!(result && result.pending), onclick: () => add(s) }),
        // Added: one tap more makes it an alarm's sound (the alarm page's form, the station chosen).
        stored ? wakeLink(stored.id, s.name) : null),
      result ? testBox(result, { 'data-nc': 'search-added' }) : null);
  }

  function draw() {
    $('#search-title').textContent = w('find_station');
    $('#q-label').textContent = w('search_name');
    $('#tag-label').textContent = w('search_tag');
    $('#country-label').textContent = w('search_country');
    $('#country-note').textContent = w('country_note');
    show();
    list.textContent = '';
    (found || []).forEach((s) => list.append(row(s)));
  }

  form.addEventListener('input', later);
  form.addEventListener('submit', (ev) => { ev.preventDefault(); clearTimeout(timer); search(); });
  NC.on('stations', draw);
  NC.on('node', draw);
  draw();
  NC.start();
})();
