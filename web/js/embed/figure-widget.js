/* DualPipe Lab figures for the course's figure system. A CLASSIC script (the course loads its
   figure files with plain <script src>), so no top-level import: it registers two figures
   synchronously and loads the ES modules with import() on first mount, relative to this file.
     <script src="…/js/embed/figure-widget.js"></script>
     ```figure dualpipe-schedule {"ranks":8,"microbatches":20}```
     ```figure dualpipe-sweep {"ranks":8,"axis":"microbatches"}```
   The course's window.LF.register takes {name: function (host, config)}; each function also
   has .mount (the same function) for hosts that expect {mount(el, config)}. Without a course
   LF, a minimal one is created that keeps the figures and can mount .lesson-figure blocks. */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script && script.src ? script.src : document.baseURI;
  var moduleUrl = new URL('figure-mount.js', base).href;
  var loading = null;

  function load() {
    if (!loading) loading = import(moduleUrl);
    return loading;
  }

  function figure(kind) {
    function mount(host, config) {
      var box = document.createElement('div');
      box.className = 'dpl-figure';
      box.setAttribute('aria-busy', 'true');
      box.textContent = 'Loading the DualPipe simulator…';
      host.appendChild(box);
      var handle = {
        view: null,
        destroyed: false,
        update: function (next) { if (handle.view) handle.view.update(Object.assign({}, next, { widget: kind })); },
        destroy: function () { handle.destroyed = true; if (handle.view) handle.view.destroy(); box.remove(); }
      };
      load().then(function (m) {
        if (handle.destroyed) return;
        box.textContent = '';
        box.removeAttribute('aria-busy');
        handle.view = m.mountFigure(kind, box, config || {});
      }, function (error) {
        box.removeAttribute('aria-busy');
        box.className += ' dpl dpl-error';
        box.setAttribute('role', 'alert');
        box.textContent = 'The DualPipe widget could not load: ' + (error && error.message ? error.message : error);
      });
      return handle;
    }
    mount.mount = mount;
    return mount;
  }

  if (!window.LF) {
    var figures = {};
    window.LF = {
      figures: figures,
      register: function (map) {
        for (var name in map) if (Object.prototype.hasOwnProperty.call(map, name)) figures[name] = map[name];
      },
      /* Mounts every <div class="lesson-figure" data-figure="name {json}"> under root, like the course. */
      mountAll: function (root) {
        var hosts = (root || document).querySelectorAll('.lesson-figure[data-figure]');
        Array.prototype.forEach.call(hosts, function (host) {
          if (host.dataset.lfMounted) return;
          var spec = host.dataset.figure.trim();
          var name = spec.split(/\s+/)[0];
          var rest = spec.slice(name.length).trim();
          var config = {};
          if (rest) { try { config = JSON.parse(rest); } catch (e) { config = {}; } }
          if (!figures[name]) return;
          figures[name](host, config);
          host.dataset.lfMounted = '1';
        });
      }
    };
  }
  window.LF.register({ 'dualpipe-schedule': figure('timeline'), 'dualpipe-sweep': figure('sweep') });
})();
