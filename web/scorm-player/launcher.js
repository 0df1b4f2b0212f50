// The SCORM player's launcher page (docs/ARCHITECTURE.md "SCORM player"). It runs on the
// content origin, never the app's: the app frames it (sandboxed), it holds the SCORM run-time API
// (scorm-again) where the content looks for it (window.parent.API / API_1484_11) and frames the
// SCO below it. It talks to the app only by postMessage to the one origin named in ?app=, and
// takes messages only from its parent at that origin. It never sees the learner's token: the app
// saves what it relays.
(function () {
  'use strict';
  var status = document.getElementById('status');
  var appOrigin = null;
  try {
    appOrigin = new URL(new URLSearchParams(window.location.search).get('app') || '').origin;
  } catch (_error) {
    appOrigin = null;
  }
  if (!appOrigin || appOrigin === 'null' || window.parent === window) {
    status.textContent = 'This page runs inside the learning platform.';
    return;
  }
  var started = false;

  function post(message) {
    window.parent.postMessage(message, appOrigin);
  }

  function fail(reason) {
    status.textContent = 'The package could not be started.';
    post({ type: 'error', message: reason });
  }

  function loadScript(name, done) {
    var script = document.createElement('script');
    script.src = name;
    script.onload = done;
    script.onerror = function () {
      fail('The SCORM run-time could not be loaded.');
    };
    document.head.appendChild(script);
  }

  function start(data) {
    var version = data.version === '2004' ? '2004' : '1.2';
    var launch;
    try {
      launch = new URL(String(data.launchUrl), window.location.href);
    } catch (_error) {
      return fail('The launch address is not valid.');
    }
    // The SCO must share this page's origin to reach the API, and must never be another site.
    if (launch.origin !== window.location.origin) return fail('The launch address is not on the content origin.');
    started = true;
    loadScript(version === '2004' ? 'scorm2004.min.js' : 'scorm12.min.js', function () {
      // No HTTP from here (lmsCommitUrl false): the app saves what is relayed, with the learner's token.
      var settings = { autocommit: false, lmsCommitUrl: false, logLevel: 5 };
      var api = version === '2004' ? new window.Scorm2004API(settings) : new window.Scorm12API(settings);
      var cmi = data.cmi && typeof data.cmi === 'object' ? data.cmi : {};
      api.loadFromFlattenedJSON(cmi, '');
      var names = version === '2004'
        ? { set: 'SetValue', commit: 'Commit', finish: 'Terminate' }
        : { set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish' };
      // Only what the run-time accepted is relayed: a write it refused (an element the package got
      // wrong, a value out of range) returns "false" to the content and is never saved, so it cannot
      // block the writes that were right. The content calls the instance's method, so the wrapper
      // sees every write and its answer.
      var setValue = api[names.set].bind(api);
      api[names.set] = function (element, value) {
        var accepted = setValue(element, value);
        if (String(accepted) === 'true' && /^cmi\./.test(String(element))) {
          post({ type: 'value', element: String(element), value: String(value) });
        }
        return accepted;
      };
      api.on(names.commit, function () {
        post({ type: 'commit' });
      });
      api.on(names.finish, function () {
        post({ type: 'finish' });
      });
      if (version === '2004') window.API_1484_11 = api;
      else window.API = api;
      var frame = document.createElement('iframe');
      frame.id = 'sco';
      frame.title = typeof data.title === 'string' && data.title ? data.title : 'SCORM package';
      frame.src = launch.href;
      document.body.appendChild(frame);
      post({ type: 'started' });
    });
  }

  // Leaving ("Save and exit"): the SCO is unloaded first, so that its own unload handlers report
  // cmi.exit and session_time and terminate (relayed as above) before the app saves and closes.
  function unload() {
    var frame = document.getElementById('sco');
    var done = false;
    function finished() {
      if (done) return;
      done = true;
      post({ type: 'unloaded' });
    }
    if (!frame) return finished();
    frame.addEventListener('load', finished);
    window.setTimeout(finished, 3000);
    frame.src = 'about:blank';
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== appOrigin) return;
    var data = event.data;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'start' && !started) start(data);
    else if (data.type === 'unload') unload();
  });
  post({ type: 'ready' });
})();
