/* The node's own replies in the page's words (v1.4, issue 41): a refusal on ~/response or from the
   HTTP API is {code, field, message, cause?}, its message the node's English. An English page shows
   that message as it is; a Korean page shows Korean words for the code (a field the app names
   named), the node's message behind "Details". A broker test's reason and a device's error, free
   text from the node, are said the same way. Loaded after app.js on every page (NC.explain). */
'use strict';
const NodeReplies = (() => {
  const WORDS = NC.words('replies', {
    en: {
      e_invalid_json: 'The clock could not read this request. Nothing changed.',
      e_invalid_field: 'This value is not accepted. Nothing changed.', e_invalid_field_named: '{f}: this value is not accepted. Nothing changed.',
      e_unknown_command: 'The clock does not know this command: it may need an update.',
      e_not_found: 'Not found: it may have been deleted already.', e_unknown_sound: 'This sound is not on the clock: choose another.',
      e_limit_exceeded: 'No more can be added: the list is full. Delete one first.',
      e_payload_too_large: 'This is too long. Shorten it and try again.',
      e_storage_error: 'The clock could not save it. Nothing changed; try again.',
      e_shutting_down: 'The clock is restarting. Try again in a moment.',
      e_speech_unavailable: 'The clock cannot speak now: speech is off in Settings, or the voice failed.',
      e_audio_unavailable: 'The speaker does not play, so this cannot be heard. Choose a speaker in Settings.',
      e_in_use: 'An alarm or a timer uses it, so it cannot be deleted. Change that first.',
      e_stream_unavailable: 'No sound comes from the station.', e_rate_limited: 'Tried too often: wait a minute and try again.',
      e_directory_unreachable: 'The station directory cannot be reached now.',
      e_busy: 'The clock is busy. Try again in a moment.', e_request_timeout: 'The request did not arrive in time. Try again.',
      e_unauthorized: 'This page is signed out. Open it again with its address.',
      e_forbidden: 'Refused: the request did not come from this clock’s own page.',
      e_too_many_requests: 'Too many wrong tries: wait a little and try again.',
      e_method_not_allowed: 'The clock refused this request.', e_misdirected_request: 'The clock refused this address: open it by its own address.',
      e_bad_request: 'The clock could not read this request.', e_network: 'The clock cannot be reached: check the network.',
      e_http: 'The clock answered something this page cannot read.', e_other: 'The clock refused this. Nothing changed.',
      broker_refused: 'the broker refused the connection', broker_login: 'the user name or password is not accepted',
      broker_silent: 'the broker did not answer', broker_other: 'the connection failed',
      device_error: 'it does not answer',
    },
    ko: {
      e_invalid_json: '시계가 이 요청을 읽지 못했습니다. 바뀐 것은 없습니다.',
      e_invalid_field: '이 값은 받아들일 수 없습니다. 바뀐 것은 없습니다.', e_invalid_field_named: '{f}: 이 값은 받아들일 수 없습니다. 바뀐 것은 없습니다.',
      e_unknown_command: '시계가 이 명령을 모릅니다: 업데이트가 필요할 수 있습니다.',
      e_not_found: '찾을 수 없습니다: 이미 삭제되었을 수 있습니다.', e_unknown_sound: '시계에 없는 소리입니다: 다른 소리를 고르세요.',
      e_limit_exceeded: '더 추가할 수 없습니다: 목록이 가득 찼습니다. 먼저 하나를 삭제하세요.', e_payload_too_large: '너무 깁니다. 줄여서 다시 해 보세요.',
      e_storage_error: '시계가 저장하지 못했습니다. 바뀐 것은 없습니다. 다시 해 보세요.',
      e_shutting_down: '시계가 다시 시작하는 중입니다. 잠시 뒤 다시 해 보세요.',
      e_speech_unavailable: '지금은 말할 수 없습니다: 설정에서 말하기가 꺼져 있거나 음성을 만들지 못했습니다.',
      e_audio_unavailable: '스피커가 재생하지 않아 들리지 않습니다. 설정에서 스피커를 고르세요.',
      e_in_use: '알람이나 타이머가 쓰고 있어 삭제할 수 없습니다. 먼저 그것을 바꾸세요.',
      e_stream_unavailable: '방송국에서 소리가 오지 않습니다.', e_rate_limited: '너무 자주 시도했습니다: 1분 뒤 다시 해 보세요.',
      e_directory_unreachable: '지금은 방송국 목록에 연결할 수 없습니다.',
      e_busy: '시계가 바쁩니다. 잠시 뒤 다시 해 보세요.', e_request_timeout: '요청이 제때 도착하지 않았습니다. 다시 해 보세요.',
      e_unauthorized: '이 페이지는 로그아웃되었습니다. 주소로 다시 여세요.',
      e_forbidden: '거절됨: 이 시계의 페이지에서 온 요청이 아닙니다.',
      e_too_many_requests: '잘못된 시도가 너무 많습니다: 잠시 뒤 다시 해 보세요.',
      e_method_not_allowed: '시계가 이 요청을 거절했습니다.', e_misdirected_request: '시계가 이 주소를 거절했습니다: 시계의 주소로 여세요.',
      e_bad_request: '시계가 이 요청을 읽지 못했습니다.', e_network: '시계에 연결할 수 없습니다: 네트워크를 확인하세요.',
      e_http: '시계가 이 페이지가 읽을 수 없는 답을 보냈습니다.', e_other: '시계가 거절했습니다. 바뀐 것은 없습니다.',
      broker_refused: '브로커가 연결을 거부했습니다', broker_login: '사용자 이름이나 비밀번호가 맞지 않습니다',
      broker_silent: '브로커가 응답하지 않았습니다', broker_other: '연결하지 못했습니다',
      device_error: '응답하지 않습니다',
    },
  });
  const w = (key, vars) => Object.entries(vars || {}).reduce((s, [k, v]) => s.replace('{' + k + '}', v),
    (WORDS[NC.lang()] || WORDS.en)[key] || WORDS.en[key]);
  const korean = () => NC.lang() === 'ko';

  /* A refusal's words: an English page the node's own message; a Korean page the code's words, a
     field the app has a word for (time, volume, sound…) named. A page's own message (no code) as it is. */
  function words(error) {
    const e = error || {};
    if (!e.code || (!korean() && e.message)) return e.message || w('e_other');
    const field = e.field ? NC.t(e.field) : null;
    if (e.code === 'invalid_field' && typeof field === 'string' && field !== e.field) return w('e_invalid_field_named', { f: field });
    return WORDS.en['e_' + e.code] ? w('e_' + e.code) : w('e_other');
  }
  /* The node's own English, when the page said it in other words: what goes behind "Details". */
  function detail(error) {
    const e = error || {};
    return e.code && korean() && e.message ? e.message : null;
  }
  /* `box` says the refusal: its words, and the node's message behind "Details" when they differ. */
  function explain(box, error) {
    box.textContent = '';
    NC.detailed(box, words(error), null, detail(error));
    return box;
  }
  /* A broker test's reason (free text from the MQTT client) in the page's words. */
  function brokerReason(reason) {
    if (!korean()) return reason || w('broker_other');
    const r = String(reason || '');
    const key = /not authori[sz]ed|user ?name|password/i.test(r) ? 'broker_login' : /refused/i.test(r) ? 'broker_refused'
      : /within|timed? ?out|no answer/i.test(r) ? 'broker_silent' : 'broker_other';
    return w(key);
  }
  /* A device's own error (a button's input, a lamp): the page's words in Korean, as it is in English. */
  const deviceError = (text) => (korean() ? w('device_error') : text);
  NC.explain = explain;
  return { words, detail, explain, brokerReason, deviceError, w };
})();
