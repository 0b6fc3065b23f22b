/* The radio page's own script (radio.html, v1.3): the stations of ~/stations, each with Listen (the
   noise set to radio:<id> and started; Stop while it plays), Test (station/test: "First audio in
   N ms · codec · bitrate · title", or why not) and Delete; and the form that adds one (station/add).
   v1.4: the station directory's search is radio-search.js's, in these words; it starts the page. */
'use strict';
(() => {
  const { el, $ } = NC;
  NC.topbar('radio');
  NC.audioNotice();
  const WORDS = NC.words('radio', {
    en: {
      intro: 'Internet radio this clock plays as noise, as an alarm, in a routine or at a timer’s end. '
        + 'When a station is down as an alarm rings, the clock rings its own alarm sound instead.',
      add_station: 'Add a station', name: 'Name', url: 'Address', add: 'Add station',
      url_note: 'A stream (http:// or https://) or a playlist (.m3u, .pls, .m3u8). Test it before you rely on it for an alarm.',
      no_stations: 'No stations yet: add one below.', listen: 'Listen',
      testing: 'Testing…', first_audio: 'First audio in {n} ms', kbps: '{n} kb/s',
      failed: 'No audio: {c}', confirm_delete: 'Delete the station “{l}”?',
      c_dns: 'the station’s address was not found', c_refused: 'the connection is refused', c_timeout: 'no answer', c_tls: 'the secure connection failed',
      c_no_audio: 'no audio came', c_undecodable: 'a format this clock cannot play', c_silent: 'only silence', c_http: 'the server answered HTTP {s}',
      find_station: 'Find a station', search_name: 'Station name (such as BBC Radio 3)', search_tag: 'Genre (such as jazz or news)',
      search_country: 'Country', country_note: 'Two letters: KR, US, DE',
      search_hint: 'A station you know: type its name in the first box. A kind of music (jazz): type it under Genre.',
      searching: 'Searching…', found: 'Stations found: {n}', found_none: 'No station found. Try another name or genre.',
      directory_down: 'The station directory cannot be reached now. You can still add a station by its address below.',
      directory_off: 'Searching is off on this clock. Add a station by its address below.',
      bad_country: 'Type the country as two letters (KR, US, DE).', add_found: 'Add', add_label: 'Add {l}',
      adding: 'Adding…', added_testing: 'Added. Testing…', added_ok: 'Added · {r}', added_failed: 'Added, but {r}', already: 'Added',
      added_typed: 'Added: {l}. It is in your stations at the top of this page.', wake: 'Wake to this', wake_label: 'Wake to {l}: a new alarm',
    },
    ko: {
      intro: '이 시계가 소음, 알람, 루틴, 타이머 종료 소리로 재생하는 인터넷 라디오입니다. '
        + '알람이 울릴 때 방송국이 응답하지 않으면 대신 시계의 알람 소리가 울립니다.',
      add_station: '방송국 추가', name: '이름', url: '주소', add: '방송국 추가',
      url_note: '방송국 웹사이트의 듣기 링크 주소(스트림 또는 재생 목록)를 붙여 넣으세요. 알람에 쓰기 전에 테스트해 보세요.',
      no_stations: '방송국이 없습니다: 아래에서 추가하세요.', listen: '듣기',
      testing: '테스트 중…', first_audio: '첫 소리까지 {n} ms', kbps: '{n} kb/s',
      failed: '소리 없음: {c}', confirm_delete: '“{l}” 방송국을 삭제할까요?',
      c_dns: '방송국 주소를 찾을 수 없음', c_refused: '연결이 거부됨', c_timeout: '응답 없음', c_tls: '보안 연결 실패',
      c_no_audio: '소리가 오지 않음', c_undecodable: '재생할 수 없는 형식', c_silent: '무음뿐임', c_http: '서버가 오류 {s}로 응답함',
      find_station: '방송국 찾기', search_name: '방송국 이름 (예: 교통방송)', search_tag: '장르 (예: 재즈, 뉴스)',
      search_country: '국가', country_note: '두 글자: KR, US, DE',
      search_hint: '아는 방송국은 첫 칸에 이름을 입력하세요. 음악 종류(재즈)는 장르 칸에 입력하세요.',
      searching: '찾는 중…', found: '찾은 방송국: {n}개', found_none: '찾은 방송국이 없습니다. 다른 이름이나 장르로 찾아 보세요.',
      directory_down: '지금은 방송국 목록에 연결할 수 없습니다. 아래에서 주소로 방송국을 추가할 수 있습니다.',
      directory_off: '이 시계에서는 검색이 꺼져 있습니다. 아래에서 주소로 방송국을 추가하세요.',
      bad_country: '국가는 두 글자로 입력하세요 (KR, US, DE).', add_found: '추가', add_label: '{l} 추가',
      adding: '추가하는 중…', added_testing: '추가했습니다. 테스트 중…', added_ok: '추가함 · {r}', added_failed: '추가했지만 {r}', already: '추가됨',
      added_typed: '추가함: {l}. 이 페이지 맨 위의 내 방송국 목록에 있습니다.', wake: '이 방송으로 깨우기', wake_label: '{l}(으)로 깨우는 새 알람',
    },
  });
  function w(key, vars) { // the page's own words, else the app's (Stop, Test, Delete, Playing)
    let s = (WORDS[NC.lang()] || WORDS.en)[key] || WORDS.en[key] || NC.t(key);
    for (const k in vars || {}) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  const results = {}; // station id → the last test's {ok, text} (or {pending}), kept across redraws

  /* station/test's answer as one line: what was heard, or why nothing was. */
  function testLine(answer) {
    if (answer.ok) {
      const r = answer.result || {};
      return [w('first_audio', { n: r.first_audio_ms }), r.codec ? String(r.codec).toUpperCase() : null,
        r.bitrate_kbps ? w('kbps', { n: r.bitrate_kbps }) : null, r.title || null].filter(Boolean).join(' · ');
    }
    const e = answer.error || {};
    if (e.code !== 'stream_unavailable') return NodeReplies.words(e);
    const http = /^http_(\d+)$/.exec(e.cause || '');
    const known = http || WORDS.en['c_' + e.cause];
    const words = http ? w('c_http', { s: http[1] }) : known ? w('c_' + e.cause) : NC.lang() === 'ko' ? w('c_no_audio') : e.cause;
    return w('failed', { c: words });
  }
  /* What goes behind "Details" under a failed test: the cause's own name (refused, dns) or the node's message. */
  function testDetail(answer) {
    const e = (answer && !answer.ok && answer.error) || {};
    return e.cause || (e.code === 'stream_unavailable' ? null : NodeReplies.detail(e)) || null;
  }
  /* A test's line: its words, the cause's name behind Details. */
  function testBox(result, attrs) {
    const box = el('p', Object.assign({ class: result.pending ? 'note' : result.ok ? 'note ok-text' : 'error', role: 'status',
      'data-ok': result.pending ? null : String(result.ok) }, attrs));
    return NC.detailed(box, result.text, null, result.detail);
  }
  /* "Wake to this": the alarm page's form, a new alarm with this station as its sound. */
  const wakeLink = (id, name) => el('a', { class: 'btn', 'data-nc': 'station-wake', href: '/alarms?sound=' + encodeURIComponent('radio:' + id),
    text: w('wake'), 'aria-label': w('wake_label', { l: name }) });

  async function test(s) {
    results[s.id] = { pending: true };
    draw();
    const answer = await NC.post('station/test', s.id);
    results[s.id] = { ok: !!answer.ok, text: testLine(answer), detail: testDetail(answer) };
    draw();
  }

  /* ~/noise's error while a station plays, in words in both languages; the node's own text (a sound
     library's error, "cannot open …") behind Details, as everywhere else. */
  function stationError(text) {
    const box = el('small', { class: 'error', 'data-nc': 'station-error' });
    return NC.detailed(box, NodeReplies.w(/^audio_unavailable/.test(text) ? 'e_audio_unavailable' : 'e_stream_unavailable'), null, text);
  }

  function row(s) {
    const n = NC.state.noise || {};
    const playing = !!(n.playing && n.station === s.id);
    const err = el('p', { class: 'error', hidden: true });
    const result = results[s.id];
    const send = async (command, payload) => NC.report(err, await NC.post(command, payload));
    return el('div', { class: 'station', 'data-nc': 'station-row', 'data-id': s.id, 'data-playing': String(playing) },
      el('div', { class: 'what' }, el('b', { text: s.name }), el('small', { class: 'url', text: s.url }),
        playing ? el('small', { class: 'now', 'data-nc': 'station-now', text: w('playing') + (n.title ? ' · ' + n.title : '') }) : null,
        playing && n.error ? stationError(n.error) : null), // ~/noise says the stream is down
      el('div', { class: 'tools' },
        el('button', { type: 'button', class: 'btn' + (playing ? ' primary' : ''), 'data-nc': 'station-listen', 'aria-pressed': String(playing),
          text: w(playing ? 'stop' : 'listen'), 'aria-label': w(playing ? 'stop' : 'listen') + ': ' + s.name,
          onclick: () => send('noise/set', playing ? 'OFF' : { playing: true, sound: 'radio:' + s.id }) }),
        wakeLink(s.id, s.name),
        el('button', { type: 'button', class: 'btn', 'data-nc': 'station-test-button', text: w('test'), 'aria-label': w('test') + ': ' + s.name,
          disabled: !!(result && result.pending), onclick: () => test(s) }),
        el('button', { type: 'button', class: 'btn danger', 'data-nc': 'station-delete', text: w('delete'), 'aria-label': w('delete') + ': ' + s.name,
          onclick: () => { if (confirm(w('confirm_delete', { l: s.name }))) send('station/delete', s.id); } })),
      result ? testBox(result.pending ? { pending: true, text: w('testing') } : result, { 'data-nc': 'station-test' }) : null,
      err);
  }

  function draw() {
    $('#intro').textContent = w('intro');
    $('#form-title').textContent = w('add_station');
    $('#name-label').textContent = w('name');
    $('#url-label').textContent = w('url');
    $('#url-note').textContent = w('url_note');
    $('#submit').textContent = w('add');
    const list = $('#list');
    const stations = NC.state.stations || [];
    // A redraw keeps the focus on the same button of the same station (a keyboard user's Listen, Test).
    const focused = document.activeElement && list.contains(document.activeElement)
      ? [document.activeElement.dataset.nc, document.activeElement.closest('[data-id]').dataset.id] : null;
    list.textContent = '';
    if (!stations.length) list.append(el('p', { class: 'note', text: w('no_stations') }));
    stations.forEach((s) => list.append(row(s)));
    if (focused) {
      const again = [...list.querySelectorAll(`[data-nc="${focused[0]}"]`)].find((b) => b.closest('[data-id]').dataset.id === focused[1]);
      if (again) again.focus();
    }
  }
  /* ~/noise comes with every change of the noise: redraw only when what the rows show changed. */
  let shownNoise = '';
  function noiseChanged(n) {
    const key = JSON.stringify([n && n.playing, n && n.station, n && n.title, n && n.error]);
    if (key !== shownNoise) { shownNoise = key; draw(); }
  }

  const form = $('#form');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const field = (name) => form.elements[name].value.trim(); // not form.name: that is the form's own name
    const name = field('name');
    const added = $('#added');
    added.hidden = true;
    // Said next to the button (the new row is at the top, out of sight on a phone).
    await NC.sendForm(form, 'station/add', { name, url: field('url') }, () => {
      form.reset();
      added.textContent = w('added_typed', { l: name });
      added.hidden = false;
    });
  });
  NC.on('stations', draw);
  NC.on('noise', noiseChanged);
  NC.on('node', draw);
  // The station search (radio-search.js) speaks the page's words and reads a test's answer alike.
  NC.radio = { w, testLine, testDetail, testBox, wakeLink };
  draw();
})();
