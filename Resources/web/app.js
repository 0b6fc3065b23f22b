/* NoiseClock web app: the shared part of every page.
   - a state store fed by GET /api/state and then the event stream (/api/events);
   - the node's clock: anchored on the last `time` payload (its epoch and the offset in its iso),
     advanced by performance.now(), never by the browser's clock or time zone;
   - post(): POST /api/<command>, answering the Response JSON;
   - i18n: English and Korean, from node.locale. */
'use strict';

const NC = (() => {
  const state = {};
  const handlers = {};
  let anchor = null; // {epoch, offset (s), perf (ms)}

  const STR = {
    en: {
      clock: 'Clock', alarms: 'Alarms', noise: 'Noise', style: 'Style', device: 'Device',
      snooze: 'Snooze', dismiss: 'Dismiss', not_heard: 'The node cannot play this alarm: it is not heard.', ringing: 'Alarm', snoozed: 'Snoozed until {t}',
      next_alarm: 'Next alarm', settings: 'Settings', offline: 'The node is offline',
      not_ready: 'The next alarm may not be heard',
      safe_mode: 'Safe mode: the clock crashed at its last starts; alarms ring built-in sounds', set_up: 'Set up this clock',
      disconnected: 'Reconnecting…',
      add_alarm: 'Add an alarm', edit_alarm: 'Edit alarm', time: 'Time', label: 'Label',
      description: 'Note', repeat: 'Repeat', date: 'Date (one-time alarm)', sound: 'Sound',
      volume: 'Volume', vibrate: 'Vibrate', snooze_minutes: 'Snooze (minutes)',
      ramp_seconds: 'Fade in (seconds)', ring_minutes: 'Ring for (minutes)',
      pre_alarm_minutes: 'Pre-alarm (minutes before)', light_minutes: 'Sunrise (minutes before)', enabled: 'Enabled', save: 'Save',
      start_volume: 'Start volume', pre_alarm_sound: 'Pre-alarm sound', pause_until: 'Pause every alarm until',
      pause: 'Pause', resume: 'Resume', pause_title: 'Holidays', paused_until: 'Paused: no alarm rings before {d}.',
      add: 'Add alarm', cancel: 'Cancel', edit: 'Edit', delete: 'Delete', test: 'Test',
      skip_next: 'Skip next', unskip: 'Don’t skip', skipping: 'Next one skipped',
      no_alarms: 'No alarms yet.', confirm_delete: 'Delete the alarm “{l}”?', more: 'More options',
      silent: 'Silent (events only)', once: 'Once', daily: 'Every day', weekdays: 'Weekdays',
      weekends: 'Weekends', next_at: 'Rings {t}', off: 'Off', saved: 'Saved',
      days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
      playing: 'Playing', stopped: 'Stopped', play: 'Play', stop: 'Stop', preview: 'Preview 3 s',
      not_heard: 'On, but not heard: the speaker does not play (see Device)',
      sleep_timer: 'Sleep timer', stops_at: 'Stops at {t}', minutes: '{n} min', no_timer: 'No timer',
      presets: 'Presets', night: 'Night', day: 'Day', dark_room: 'Dark room',
      dark_room_note: 'Dark room: dim red digits, no glow — readable, and it does not light the room.', colours: 'Colours', digit_color: 'Digits',
      background_color: 'Background', glow: 'Glow', random_color: 'Random colour each minute',
      size: 'Size', auto_fit: 'Fill the screen', scale: 'Scale', digit_opacity: 'Digit opacity',
      overlay_opacity: 'Overlay opacity', format: 'Format', use_24_hour: '24-hour clock',
      show_seconds: 'Seconds', show_ampm: 'AM/PM', font: 'Font', font_family: 'Family',
      font_weight: 'Weight', font_design: 'Design', overlays: 'Overlays', show_date: 'Date',
      show_battery: 'Battery', keep_awake: 'Keep the screen awake', face_light: 'Light up with the lamp', contrast: 'Contrast {r}:1',
      contrast_low: 'Below 4.5:1: the digits may be hard to read.',
      contrast_ok: 'Readable: meets the web’s accessibility bar.', preview_face: 'Preview',
      mqtt: 'MQTT', audio: 'Audio', battery: 'Battery', version: 'Version', node_id: 'Clock name',
      timezone: 'Time zone', locale: 'Language', node_time: 'Node time', connected: 'Connected',
      custom_sounds: 'Your sounds', no_custom_sounds: 'None yet: choose a folder of your own sounds in Settings.',
      not_connected: 'Not connected', ok: 'OK', unavailable: 'Unavailable', on_ac: 'Mains power',
      lamp: 'Lamp', shaker: 'Bed shaker', no_lamp: 'No lamp is set up: to wake with light, add your lamp in Settings.', confirmed: 'confirmed',
      unconfirmed: 'not confirmed', shaking: 'Shaking', shaker_unconfirmed: 'Did not confirm', no_ring_yet: 'No vibrating ring yet',
      charging: 'Charging', discharging: 'On battery', full: 'Full', not_charging: 'Not charging',
      output: 'Output device', web: 'This page', live: 'Live', open_face: 'Open the clock face',
      underruns: 'Clicks since start (the sound ran dry)',
      fullscreen_hint: 'Tap for full screen', no_sound: 'No sound output', see_device: 'see Device', nothing_heard: 'nothing the clock plays can be heard.', choose_speaker: 'Choose a speaker',
      fam_system: 'System', fam_san_francisco: 'San Francisco', fam_monaco: 'Monaco', fam_courier: 'Courier',
      w_ultra_light: 'Ultra light', w_thin: 'Thin', w_light: 'Light', w_regular: 'Regular', w_medium: 'Medium',
      w_semibold: 'Semibold', w_bold: 'Bold', w_heavy: 'Heavy', w_black: 'Black',
      d_default: 'Default', d_serif: 'Serif', d_rounded: 'Rounded', d_monospaced: 'Monospaced',
      /* sleep programmes: routines, timers, mixes (routines.html, timers.html, programmes.js) */
      routines: 'Routines', timers: 'Timers', add_routine: 'Add a routine', edit_routine: 'Edit routine', add_r: 'Add routine',
      r_start: 'Start', r_end: 'End', ends_by: 'Ends', by_end: 'At a time', by_duration: 'After a duration',
      duration_minutes: 'Duration (minutes)', fade_in_seconds: 'Fade in (seconds)', fade_out_seconds: 'Fade out (seconds)',
      start_now: 'Start now', no_routines: 'No routines yet.', active_until: 'Playing until {t}', starts_at: 'Starts {t}',
      confirm_delete_r: 'Delete the routine “{l}”?', for_minutes: 'for {n} min', mix: 'mix',
      start_timer: 'Start a timer', timer_minutes: 'Minutes', start: 'Start', running: 'Running', no_timers: 'No timer running.',
      cancel_all: 'Cancel all', ends_at: 'Ends {t}', timer_presets: 'Presets', add_preset: 'Add a preset', remove: 'Remove',
      save_presets: 'Save presets', remaining: 'Time left',
      mixes: 'Mixes', mix_name: 'Name', layer: 'Layer {n}', layer_volume: 'Layer {n} volume', add_layer: 'Add a layer',
      save_mix: 'Save mix', no_mixes: 'No mixes yet.', confirm_delete_mix: 'Delete the mix “{l}”?', none: '—',
      /* buttons and voice (v1.2): the device page's Buttons and Say, the face's Speak, the alarm's speak_time */
      buttons: 'Buttons', no_buttons: 'No buttons are set up. A bedside button can snooze, stop an alarm or say the time: add yours in Settings.',
      src_input: 'Local input', src_mqtt: 'MQTT', missing: 'Missing', g_press: 'Press', g_double: 'Double', g_hold: 'Hold',
      a_snooze_or_speak: 'Snooze, or say the time', a_snooze: 'Snooze', a_dismiss: 'Dismiss', a_speak_time: 'Say the time',
      a_speak_next_alarm: 'Say the next alarm', a_noise_toggle: 'Noise on/off', a_volume_up: 'Volume up', a_volume_down: 'Volume down',
      a_light_toggle: 'Lamp on/off', a_routine_toggle: 'Routine start/stop', a_none: 'Nothing', a_timer: 'Timer {id}', a_command: 'Command {c}',
      last_gesture: 'Last: {g} {t}', learn: 'Which key is my button?', press_now: 'Press your button now',
      seconds_left: '{n} s left', learn_over: 'Listening ended.', no_keys: 'No key pressed yet.',
      say_title: 'Say something', say_text: 'Text to say', say_volume: 'Volume (optional)', say: 'Say', said: 'Said “{t}” ({s} s)',
      speak_now: 'Speak the time', speak_time: 'Say the time when it rings', says_time: 'says the time',
      signin_title: 'NoiseClock sign-in', signin_prompt: 'Enter this node\'s web token.',
      signin_hint: 'Run {c} on the node for an address that carries it.',
      token: 'Token', open: 'Open',
      /* radio (v1.3): the menu, the pickers' group, the face's now playing (radio.js has the page's own words) */
      radio: 'Radio', now_playing: 'Now playing',

      /* v1.4, issue 41: the face's readiness line (why, and where to fix it), noise on the face, messages with Details */
      details: 'Details', fix_it: 'Fix it', open_settings: 'Open Settings', ready_why: 'The next alarm may not be heard: {w}.',
      r_audio_unavailable: 'the speaker does not play', r_output_muted: 'the speaker is muted',
      r_sound_unplayable: 'its sound cannot be played, so it will beep', r_clock_not_synced: 'the clock’s time may be wrong',
      r_light_unconfirmed: 'the lamp does not answer', r_shaker_unconfirmed: 'the bed shaker does not answer',
      r_stream_unreachable: 'its radio station does not answer', r_other: 'a check found a problem',
      face_noise: 'Noise: {s}', face_unheard: 'not heard',
      state_idle: 'No alarm ringing', state_ringing: 'Ringing', state_snoozed: 'Snoozed',
      lang_en: 'English', lang_ko: 'Korean',
      /* The catalog's and the default presets' names, shown in words while unchanged (NC.soundName, NC.presetLabel) */
      snd_white: 'White noise', snd_pink: 'Pink noise', snd_brown: 'Brown noise', snd_rain: 'Rain', snd_ocean: 'Ocean waves', snd_fan: 'Fan',
      snd_digital: 'Digital', snd_classic: 'Classic bell', snd_beep: 'Beep', snd_siren: 'Siren', snd_chime: 'Chime',
      cat_noise: 'Noise', cat_nature: 'Nature', cat_mechanical: 'Machine', cat_tone: 'Tone', cat_mix: 'Mix', cat_radio: 'Radio', cat_custom: 'Yours',
      preset_nap: 'Nap', preset_power_nap: 'Power nap', preset_rest: 'Rest',
      ph_alarm: 'Alarm', ph_routine: 'Routine', ph_timer: 'Timer', ph_mix: 'Rainy brown', ph_url: 'https://',
      cmd_noise_volume: 'Noise volume {p}', cmd_noise: 'Noise {p}', cmd_noise_sound: 'Noise sound {p}', on: 'on', toggle: 'on/off',
    },
    ko: {
      clock: '시계', alarms: '알람', noise: '소음', style: '스타일', device: '기기',
      snooze: '다시 알림', dismiss: '끄기', not_heard: '노드가 이 알람을 재생할 수 없습니다: 소리가 나지 않습니다.', ringing: '알람', snoozed: '{t}에 다시 울림',
      next_alarm: '다음 알람', settings: '설정', offline: '노드가 오프라인입니다',
      not_ready: '다음 알람이 들리지 않을 수 있습니다',
      safe_mode: '안전 모드: 시계가 최근 시작 때 멈췄습니다. 알람은 기본 소리로 울립니다', set_up: '이 시계 설정하기',
      disconnected: '다시 연결하는 중…',
      add_alarm: '알람 추가', edit_alarm: '알람 편집', time: '시간', label: '이름',
      description: '메모', repeat: '반복', date: '날짜 (한 번만)', sound: '소리',
      volume: '음량', vibrate: '진동', snooze_minutes: '다시 알림 (분)',
      ramp_seconds: '점점 크게 (초)', ring_minutes: '울리는 시간 (분)',
      pre_alarm_minutes: '미리 알림 (분 전)', light_minutes: '해돋이 조명 (분 전)', enabled: '켜짐', save: '저장',
      start_volume: '시작 음량', pre_alarm_sound: '미리 알림 소리', pause_until: '이 날까지 모든 알람 일시 중지',
      pause: '일시 중지', resume: '다시 시작', pause_title: '휴가', paused_until: '일시 중지됨: {d} 전에는 알람이 울리지 않습니다.',
      add: '알람 추가', cancel: '취소', edit: '편집', delete: '삭제', test: '테스트',
      skip_next: '다음 한 번 건너뛰기', unskip: '건너뛰기 취소', skipping: '다음 한 번 건너뜀',
      no_alarms: '알람이 없습니다.', confirm_delete: '“{l}” 알람을 삭제할까요?', more: '옵션 더 보기',
      silent: '무음 (이벤트만)', once: '한 번', daily: '매일', weekdays: '주중',
      weekends: '주말', next_at: '{t}에 울림', off: '끔', saved: '저장됨',
      days: ['월', '화', '수', '목', '금', '토', '일'],
      playing: '재생 중', stopped: '정지됨', play: '재생', stop: '정지', preview: '3초 미리 듣기',
      not_heard: '켜져 있지만 들리지 않음: 스피커가 재생하지 않습니다 (기기 화면 보기)',
      sleep_timer: '취침 타이머', stops_at: '{t}에 정지', minutes: '{n}분', no_timer: '타이머 없음',
      presets: '프리셋', night: '밤', day: '낮', dark_room: '어두운 방',
      dark_room_note: '어두운 방: 흐린 빨간 숫자, 빛 번짐 없음 — 잘 보이면서 방을 밝히지 않습니다.', colours: '색상', digit_color: '숫자',
      background_color: '배경', glow: '빛 번짐', random_color: '매분 무작위 색상',
      size: '크기', auto_fit: '화면에 맞추기', scale: '배율', digit_opacity: '숫자 불투명도',
      overlay_opacity: '오버레이 불투명도', format: '형식', use_24_hour: '24시간제',
      show_seconds: '초', show_ampm: '오전/오후', font: '글꼴', font_family: '글꼴 종류',
      font_weight: '굵기', font_design: '디자인', overlays: '오버레이', show_date: '날짜',
      show_battery: '배터리', keep_awake: '화면 켜짐 유지', face_light: '조명과 함께 밝히기', contrast: '대비 {r}:1',
      contrast_low: '4.5:1 미만: 숫자가 잘 안 보일 수 있습니다.',
      contrast_ok: '읽기 좋음: 웹 접근성 기준을 충족합니다.', preview_face: '미리 보기',
      mqtt: 'MQTT', audio: '오디오', battery: '배터리', version: '버전', node_id: '시계 이름',
      timezone: '시간대', locale: '언어', node_time: '노드 시간', connected: '연결됨',
      custom_sounds: '내 소리', no_custom_sounds: '아직 없음: 설정에서 내 소리 폴더를 고르세요.',
      not_connected: '연결 안 됨', ok: '정상', unavailable: '사용 불가', on_ac: '전원 연결',
      lamp: '조명', shaker: '침대 진동기', no_lamp: '설정된 조명이 없습니다: 빛으로 깨우려면 설정에서 조명을 추가하세요.', confirmed: '확인됨',
      unconfirmed: '확인 안 됨', shaking: '진동 중', shaker_unconfirmed: '확인 안 됨', no_ring_yet: '진동 알람 없음',
      charging: '충전 중', discharging: '배터리 사용 중', full: '완충', not_charging: '충전 안 함',
      output: '출력 장치', web: '이 페이지', live: '실시간', open_face: '시계 화면 열기',
      underruns: '시작 후 끊김 (소리가 비었던 횟수)',
      fullscreen_hint: '눌러서 전체 화면', no_sound: '소리 출력 없음', see_device: '기기 화면 보기', nothing_heard: '시계가 내는 소리가 들리지 않습니다.', choose_speaker: '스피커 고르기',
      fam_system: '시스템', fam_san_francisco: 'San Francisco', fam_monaco: 'Monaco', fam_courier: 'Courier',
      w_ultra_light: '아주 가늘게', w_thin: '가늘게', w_light: '얇게', w_regular: '보통', w_medium: '중간',
      w_semibold: '약간 굵게', w_bold: '굵게', w_heavy: '아주 굵게', w_black: '가장 굵게',
      d_default: '기본', d_serif: '세리프', d_rounded: '둥글게', d_monospaced: '고정폭',
      /* sleep programmes: routines, timers, mixes (routines.html, timers.html, programmes.js) */
      routines: '루틴', timers: '타이머', add_routine: '루틴 추가', edit_routine: '루틴 편집', add_r: '루틴 추가',
      r_start: '시작', r_end: '종료', ends_by: '끝나는 때', by_end: '정한 시각에', by_duration: '정한 시간 뒤에',
      duration_minutes: '지속 시간 (분)', fade_in_seconds: '점점 크게 (초)', fade_out_seconds: '점점 작게 (초)',
      start_now: '지금 시작', no_routines: '루틴이 없습니다.', active_until: '{t}까지 재생 중', starts_at: '{t}에 시작',
      confirm_delete_r: '“{l}” 루틴을 삭제할까요?', for_minutes: '{n}분 동안', mix: '믹스',
      start_timer: '타이머 시작', timer_minutes: '분', start: '시작', running: '진행 중', no_timers: '진행 중인 타이머가 없습니다.',
      cancel_all: '모두 취소', ends_at: '{t}에 끝남', timer_presets: '프리셋', add_preset: '프리셋 추가', remove: '제거',
      save_presets: '프리셋 저장', remaining: '남은 시간',
      mixes: '믹스', mix_name: '이름', layer: '레이어 {n}', layer_volume: '레이어 {n} 음량', add_layer: '레이어 추가',
      save_mix: '믹스 저장', no_mixes: '믹스가 없습니다.', confirm_delete_mix: '“{l}” 믹스를 삭제할까요?', none: '—',
      /* buttons and voice (v1.2) */
      buttons: '버튼', no_buttons: '버튼이 없습니다. 침대 옆 버튼으로 다시 알림, 알람 끄기, 시간 말하기를 할 수 있습니다: 설정에서 추가하세요.',
      src_input: '로컬 입력 장치', src_mqtt: 'MQTT', missing: '찾을 수 없음', g_press: '한 번', g_double: '두 번', g_hold: '길게',
      a_snooze_or_speak: '다시 알림, 울리지 않을 땐 시간 말하기', a_snooze: '다시 알림', a_dismiss: '알람 끄기', a_speak_time: '시간 말하기',
      a_speak_next_alarm: '다음 알람 말하기', a_noise_toggle: '소음 켜기/끄기', a_volume_up: '음량 높이기', a_volume_down: '음량 낮추기',
      a_light_toggle: '조명 켜기/끄기', a_routine_toggle: '루틴 시작/정지', a_none: '없음', a_timer: '타이머 {id}', a_command: '명령 {c}',
      last_gesture: '마지막: {t} {g}', learn: '내 버튼의 키 알아보기', press_now: '지금 버튼을 누르세요',
      seconds_left: '{n}초 남음', learn_over: '확인이 끝났습니다.', no_keys: '아직 누른 키가 없습니다.',
      say_title: '말하기', say_text: '말할 내용', say_volume: '음량 (선택)', say: '말하기', said: '“{t}” 말함 ({s}초)',
      speak_now: '시간 말하기', speak_time: '울릴 때 시간 말하기', says_time: '시간을 말함',
      signin_title: 'NoiseClock 로그인', signin_prompt: '이 노드의 웹 토큰을 입력하세요.',
      signin_hint: '노드에서 {c}을 실행하면 토큰이 포함된 주소가 나옵니다.',
      token: '토큰', open: '열기',
      radio: '라디오', now_playing: '지금 재생 중',

      details: '자세히', fix_it: '해결하기', open_settings: '설정 열기', ready_why: '다음 알람이 들리지 않을 수 있습니다: {w}.',
      r_audio_unavailable: '스피커가 재생하지 않습니다', r_output_muted: '스피커가 음소거되어 있습니다',
      r_sound_unplayable: '알람 소리를 재생할 수 없어 삐 소리로 울립니다', r_clock_not_synced: '시계의 시간이 틀릴 수 있습니다',
      r_light_unconfirmed: '조명이 응답하지 않습니다', r_shaker_unconfirmed: '침대 진동기가 응답하지 않습니다',
      r_stream_unreachable: '라디오 방송국이 응답하지 않습니다', r_other: '점검에서 문제를 찾았습니다',
      face_noise: '소음: {s}', face_unheard: '들리지 않음',
      state_idle: '울리는 알람 없음', state_ringing: '울리는 중', state_snoozed: '다시 알림 대기 중',
      lang_en: '영어', lang_ko: '한국어',
      snd_white: '백색 소음', snd_pink: '핑크 소음', snd_brown: '갈색 소음', snd_rain: '빗소리', snd_ocean: '파도 소리', snd_fan: '선풍기',
      snd_digital: '디지털', snd_classic: '클래식 벨', snd_beep: '삐 소리', snd_siren: '사이렌', snd_chime: '차임',
      cat_noise: '소음', cat_nature: '자연', cat_mechanical: '기계', cat_tone: '알림음', cat_mix: '믹스', cat_radio: '라디오', cat_custom: '내 소리',
      preset_nap: '낮잠', preset_power_nap: '짧은 낮잠', preset_rest: '휴식',
      ph_alarm: '알람', ph_routine: '루틴', ph_timer: '타이머', ph_mix: '빗소리와 갈색 소음', ph_url: '방송국 스트림 주소',
      cmd_noise_volume: '소음 음량 {p}', cmd_noise: '소음 {p}', cmd_noise_sound: '소음 소리 {p}', on: '켜기', toggle: '켜기/끄기',
    },
  };

  function lang() {
    const l = (state.node && state.node.locale) || document.documentElement.lang || 'en';
    return /^ko/i.test(l) ? 'ko' : 'en';
  }
  function t(key, vars) {
    let s = STR[lang()][key];
    if (s === undefined) s = STR.en[key];
    if (s === undefined) return key;
    if (vars && typeof s === 'string') for (const k in vars) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  /* Every element with data-i18n="key" gets t(key) as its text; data-i18n-aria for aria-label. */
  function translate(root) {
    document.documentElement.lang = lang();
    (root || document).querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    (root || document).querySelectorAll('[data-i18n-aria]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nAria)); });
    (root || document).querySelectorAll('[data-i18n-ph]').forEach((el) => { el.placeholder = t(el.dataset.i18nPh); });
  }
  /* A catalog sound's (or a default timer preset's) name in the page's language while it is the node's
     unchanged default; any other name is the owner's and shown as it is. */
  const named = (prefix, id, name) => (STR.en[prefix + id] !== undefined && STR.en[prefix + id] === name ? t(prefix + id) : name);
  const soundName = (x) => named('snd_', x.id, x.name);
  const presetLabel = (p) => named('preset_', p.id, p.label);
  /* The string tables of the pages' own scripts (NC.words(name, table)): the test of Korean reads them all. */
  const tables = { app: STR };
  function words(name, table) { tables[name] = table; return table; }
  /* A message in a person's words with what to do (a link), and the technical detail behind "Details". */
  function detailed(box, text, link, detail) {
    box.append(el('span', {}, text, link ? [' ', el('a', { class: 'fix', href: link[0], text: link[1] })] : []));
    if (detail) box.append(el('details', { class: 'tech' }, el('summary', { text: t('details') }), el('code', { 'data-nc': 'detail', text: detail })));
    return box;
  }

  function on(topic, fn) { (handlers[topic] = handlers[topic] || []).push(fn); }
  function emit(topic, payload) {
    (handlers[topic] || []).forEach((fn) => fn(payload, topic));
    (handlers['*'] || []).forEach((fn) => fn(payload, topic));
  }
  function put(topic, payload) {
    state[topic] = payload;
    if (topic === 'time' && payload && typeof payload.epoch === 'number') {
      // A payload names the boundary just passed (or, from /api/state, the second now). If our
      // own count is already inside that period, it is the better one (the payload may have
      // come late, e.g. right after the node's clock jumped); otherwise start again from it.
      const period = state.style && state.style.show_seconds ? 1 : 60;
      const current = nodeEpoch();
      const offset = zoneOffset(payload.iso);
      if (current !== null && current >= payload.epoch && current < payload.epoch + period) anchor.offset = offset;
      else anchor = { epoch: payload.epoch, offset, perf: performance.now() };
    }
    if (topic === 'node') translate();
    emit(topic, payload);
  }

  /* ---- the node's clock ---- */
  function zoneOffset(iso) {
    const m = /([+-])(\d\d):?(\d\d)$/.exec(iso || '');
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
  }
  /* Seconds since the epoch on the node's clock, now (fractional), or null before any time. */
  function nodeEpoch() { return anchor ? anchor.epoch + (performance.now() - anchor.perf) / 1000 : null; }
  /* Wall time in the node's zone: {h, m, s, frac} for the node's now. */
  function nodeWall() {
    const e = nodeEpoch();
    if (e === null) return null;
    const local = e + anchor.offset;
    const whole = Math.floor(local);
    const sod = ((whole % 86400) + 86400) % 86400;
    return { h: Math.floor(sod / 3600), m: Math.floor(sod / 60) % 60, s: sod % 60, frac: local - whole, day: Math.floor(whole / 86400) };
  }
  const pad = (n) => (n < 10 ? '0' : '') + n;
  /* The time as ~/time's display shows it, for wall time w and style st. */
  function display(w, st) {
    st = st || state.style || {};
    let h = w.h;
    let text;
    if (st.use_24_hour === false) { h = h % 12 || 12; text = h + ':' + pad(w.m); } else text = pad(h) + ':' + pad(w.m);
    if (st.show_seconds) text += ':' + pad(w.s);
    return text;
  }
  function ampm(w, st) {
    st = st || state.style || {};
    if (st.use_24_hour !== false || st.show_ampm === false) return null;
    const pm = w.h >= 12;
    return lang() === 'ko' ? (pm ? '오후' : '오전') : (pm ? 'PM' : 'AM');
  }
  /* "HH:MM" (or 12-hour) of an ISO time with offset, read in the zone the string carries. */
  function clockOf(iso, st) {
    const m = /T(\d\d):(\d\d)/.exec(iso || '');
    if (!m) return '';
    st = st || state.style || {};
    const h = Number(m[1]);
    if (st.use_24_hour === false) {
      const pm = h >= 12;
      const hh = (h % 12 || 12) + ':' + m[2];
      return lang() === 'ko' ? (pm ? '오후 ' : '오전 ') + hh : hh + (pm ? ' PM' : ' AM');
    }
    return m[1] + ':' + m[2];
  }
  /* The weekday index (0 = Mon) and day number of an ISO date; and whether it is the node's today. */
  function dayOf(iso) {
    const m = /^(\d{4})-(\d\d)-(\d\d)/.exec(iso || '');
    if (!m) return null;
    const days = Math.floor(Date.UTC(+m[1], +m[2] - 1, +m[3]) / 86400000);
    return { days, weekday: (((days + 3) % 7) + 7) % 7 };
  }
  /* A short "when" for an ISO moment: the time, prefixed by the weekday unless it is today. */
  function when(iso) {
    if (!iso) return '';
    const d = dayOf(iso);
    const w = nodeWall();
    const today = w ? w.day : null;
    const time = clockOf(iso);
    if (!d || d.days === today) return time;
    return t('days')[d.weekday] + ' ' + time;
  }

  /* ---- talking to the node ---- */
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
  /* A time field follows the node's clock style. Chromium's time input shows AM/PM or not by the
     browser's locale, whatever the page's lang, so on a 24-hour node (the default, also before the
     style is known) it is a plain HH:MM text field; on a 12-hour node the time input, with AM/PM.
     The value ("06:30") is the same in both, so the forms read and fill it as before. */
  function followClock(input) {
    const apply = () => {
      const type = state.style && state.style.use_24_hour === false ? 'time' : 'text';
      if (input.type === type) return;
      const value = input.value;
      input.type = type;
      const text = { inputmode: 'numeric', pattern: '([01]?[0-9]|2[0-3]):[0-5][0-9]', placeholder: '00:00', maxlength: '5', size: '5', autocomplete: 'off' };
      Object.keys(text).forEach((k) => { if (type === 'text') input.setAttribute(k, text[k]); else input.removeAttribute(k); });
      input.value = value;
      input.dataset.clock = type === 'text' ? '24' : '12';
    };
    on('style', apply);
    apply();
  }
  async function start() {
    translate();
    document.querySelectorAll('input[type=time]').forEach(followClock);
    await loadState();
    connect();
  }

  /* ---- small helpers for pages ---- */
  function $(sel, root) { return (root || document).querySelector(sel); }
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      const v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    children.flat().forEach((c) => { if (c !== null && c !== undefined && c !== false) e.append(c); });
    return e;
  }
  /* ---- the pages with a list and a form (alarms, routines) ---- */
  const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const checkedDays = (form) => [...form.querySelectorAll('[name=repeat]:checked')].map((i) => i.value);
  /* The form's seven repeat day chips in `box`, in the locale's names, keeping what was checked. */
  function dayChips(form, box) {
    const names = t('days');
    const checked = new Set(checkedDays(form));
    box.textContent = '';
    DAYS.forEach((d, i) => box.append(el('label', {}, el('input', { type: 'checkbox', name: 'repeat', value: d, checked: checked.has(d), 'aria-label': names[i] }), el('span', { 'aria-hidden': 'true', text: names[i] }))));
  }
  /* What a repeat of `days` is called: once, daily, weekdays, weekends, or the days by name. */
  function repeatText(days) {
    const key = days.length === 0 ? 'once' : days.length === 7 ? 'daily' : days.join() === 'mon,tue,wed,thu,fri' ? 'weekdays' : days.join() === 'sat,sun' ? 'weekends' : null;
    return key ? t(key) : days.map((d) => t('days')[DAYS.indexOf(d)]).join(', ');
  }
  /* A form's refusal under its field (opening the "More options" it is in, and focused), else under
     the form; null or an accepted answer clears them. */
  function formErrors(form, answer) {
    form.querySelectorAll('.error[data-for]').forEach((p) => { p.hidden = true; p.textContent = ''; });
    if (!answer || answer.ok) return;
    const e = answer.error || {};
    const p = form.querySelector(`.error[data-for="${e.field || ''}"]`) || form.querySelector('.error[data-for=""]');
    explain(p, e); p.hidden = false;
    if (p.dataset.for && p.closest('details')) p.closest('details').open = true;
    const input = e.field && form.elements[e.field];
    if (input && input.focus) input.focus();
  }
  /* Sends the form's command (its #submit disabled meanwhile): the refusal shown, or done() once accepted. */
  async function sendForm(form, command, body, done) {
    $('#submit').disabled = true;
    const answer = await post(command, body);
    $('#submit').disabled = false;
    formErrors(form, answer);
    if (answer.ok) done(answer);
  }
  /* A list row's error line, its commands on `id` (a refusal shown in that line) and its enabled
     switch, which sends `<kind>/enable` or `<kind>/disable`. */
  function rowControls(kind, id, label, enabled) {
    const err = el('p', { class: 'error', hidden: true });
    const act = (command, payload) => async () => { report(err, await post(command, payload === undefined ? id : payload)); };
    const sw = el('input', { type: 'checkbox', role: 'switch', checked: enabled, 'aria-label': t('enabled') + ': ' + label });
    sw.addEventListener('change', () => act(kind + (sw.checked ? '/enable' : '/disable'))());
    return { err, act, sw };
  }

  /* A row of a list the page's form edits (alarms, routines): `when`, the item's label over
     `lines`, its enabled switch, its tools and its error line. `tools(act, edit)` gives the page's
     own buttons, the edit button among them where it goes; delete (asking `confirm` first) is last.
     Edit fills `form` with the item (`edit`) and brings it into view with the field `focus` focused. */
  function formRow(kind, item, { className, when, lines, tools, form, edit, focus, confirm: question }) {
    const { err, act, sw } = rowControls(kind, item.id, item.label, item.enabled);
    const editButton = el('button', { type: 'button', class: 'btn', text: t('edit'),
      onclick: () => { edit(item); form.scrollIntoView({ behavior: 'smooth' }); form[focus].focus(); } });
    const remove = el('button', { type: 'button', class: 'btn danger', text: t('delete'),
      onclick: () => { if (confirm(t(question, { l: item.label }))) act(kind + '/delete')(); } });
    return el('div', { class: className, 'data-nc': kind + '-row', 'data-id': item.id },
      el('div', { class: 'when', text: when }),
      el('div', { class: 'what' }, el('b', { text: item.label }), lines),
      el('label', { class: 'switch' }, sw),
      el('div', { class: 'tools' }, tools(act, editButton), remove),
      err);
  }

  /* Shows a command's refusal next to a control (or clears it). */
  function report(node, answer) {
    if (!node) return;
    node.textContent = '';
    if (answer && !answer.ok) explain(node, answer.error);
    node.hidden = !node.textContent;
  }
  /* A refusal in the page's words, the node's own behind "Details" (replies.js); its message alone without it. */
  function explain(box, error) {
    if (NC.explain) return NC.explain(box, error);
    box.textContent = (error && (error.message || error.code)) || 'error';
    return box;
  }
  /* WCAG 2.1 contrast ratio of two #RRGGBB colours. */
  function contrast(a, b) {
    const lum = (hex) => {
      const v = hex.replace('#', '');
      const full = v.length === 3 ? v.split('').map((c) => c + c).join('') : v;
      const c = [0, 2, 4].map((i) => parseInt(full.substr(i, 2), 16) / 255)
        .map((x) => (x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4)));
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const la = lum(a), lb = lum(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }
  /* The CSS for a ClockStyle's font. */
  function font(st) {
    const weights = { ultra_light: 100, thin: 200, light: 300, regular: 400, medium: 500, semibold: 600, bold: 700, heavy: 800, black: 900 };
    const families = {
      san_francisco: '"SF Pro Display", -apple-system, BlinkMacSystemFont, "Helvetica Neue", Helvetica, Arial, sans-serif',
      monaco: 'Monaco, Menlo, "DejaVu Sans Mono", Consolas, "Liberation Mono", monospace',
      courier: '"Courier New", Courier, "Liberation Mono", "Nimbus Mono PS", monospace',
    };
    const designs = {
      default: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif',
      serif: 'ui-serif, "New York", Georgia, "DejaVu Serif", "Noto Serif", serif',
      rounded: 'ui-rounded, "SF Pro Rounded", "Arial Rounded MT Bold", "Nunito", "Quicksand", "Varela Round", system-ui, sans-serif',
      monospaced: 'ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", "Liberation Mono", monospace',
    };
    const family = (st.font_family && st.font_family !== 'system' && families[st.font_family]) || designs[st.font_design] || designs.default;
    return { family, weight: weights[st.font_weight] || 400 };
  }

  /* The settings pages' top bar: one link per page, the current one marked. */
  function topbar(current) {
    const pages = [['/', 'clock'], ['/alarms', 'alarms'], ['/noise', 'noise'], ['/radio', 'radio'], ['/style', 'style'], ['/device', 'device'],
      ['/routines', 'routines'], ['/timers', 'timers'], ['/settings', 'settings']];
    const nav = el('nav', { 'aria-label': 'NoiseClock' }, pages.map(([href, key]) =>
      el('a', { href, 'data-i18n': key, 'aria-current': key === current ? 'page' : null, text: t(key) })));
    document.body.prepend(el('header', { class: 'topbar' }, nav));
    setupLink(document.querySelector('main'), (link) => document.querySelector('main').prepend(link));
  }
  /* Until the first-start wizard is finished once (node.setup_done, v1.4): "Set up this clock", a link to /setup. */
  function setupLink(root, place) {
    if (location.pathname === '/setup') return null;
    const link = el('a', { class: 'setup-link', href: '/setup', 'data-nc': 'setup', 'data-i18n': 'set_up', hidden: true, text: t('set_up') });
    place(link);
    on('node', (node) => { link.hidden = !(node && node.setup_done === false); });
    return link;
  }
  /* A notice under the page's title while ~/audio says there is no sound output (nothing is heard). */
  function audioNotice() {
    const box = el('div', { class: 'notice', id: 'audio-notice', role: 'status', hidden: true });
    const h1 = $('main h1');
    h1.after(box);
    const draw = () => {
      const a = state.audio;
      box.hidden = !(a && a.status === 'unavailable');
      if (box.hidden) return;
      box.textContent = '';
      // The raw ALSA error only behind "Details": a person reads what it means and where to fix it.
      detailed(box, [el('b', { text: t('no_sound') }), ': ' + t('nothing_heard')], ['/settings#h-s_sound', t('choose_speaker')],
        (a.device ? a.device + ': ' : '') + (a.error || ''));
    };
    on('audio', draw);
    on('node', draw);
  }
  /* A switch (checkbox) inside a row: <label class="row"><span>text</span><span class="switch"><input></span></label>. */
  function toggleRow(name, key) {
    return el('label', { class: 'row' }, el('span', { class: 'name', 'data-i18n': key || name, text: t(key || name) }),
      el('span', { class: 'switch' }, el('input', { type: 'checkbox', name, role: 'switch' })));
  }

  return { state, on, soundName, presetLabel, words, tables, detailed, topbar, setupLink, audioNotice, toggleRow, put, t, translate, lang, post, start, nodeEpoch, nodeWall, display, ampm, clockOf, when, dayOf, pad, $, el, report, contrast, font,
    DAYS, checkedDays, dayChips, repeatText, formErrors, sendForm, rowControls, formRow };
})();
