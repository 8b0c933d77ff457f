/* DualPipe Lab figures for the course's figure system. A CLASSIC script (the course loads its
   figure files with plain <script src>), so no top-level import: it registers two figures
   synchronously and loads the ES modules with import() on first mount, relative to this file.
     <script src="…/js/embed/figure-widget.js"></script>
     ```figure
     dualpipe-schedule schedule=dualpipev ranks=4 microbatches=10
     ```
   The course calls each registered function as fn(host, config), config being its JSON.parse of
   the text after the name, or {} when that fails. It writes the fence into data-figure without
   escaping quotes, so a JSON config arrives broken; the quote-free key=value form survives, and
   is read from the host's data-figure when the config is empty (lib/figure-spec.js).
   The figure renders in a shadow root, so the course's styles (list bullets, justified text, its
   serif body font) cannot reach it, while its theme variables (--bg, --ink, --blueprint,
   --rule-soft...) still flow in. Each function also has .mount (the same function) for hosts that
   expect {mount(el, config)}. Without a course LF, a minimal one mounts .lesson-figure blocks.
   Both course contracts are served: window.LF.register and the published window.AIFS_FIGURES. */
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
      // The one element we add to the host's DOM: a custom-element name, so the host's div rules
      // miss it, and inline `all: initial !important`, which outranks any host rule that matches
      // it anyway (custom properties, the course's theme, still inherit through it).
      var holder = document.createElement('dualpipe-lab-figure');
      holder.className = 'dualpipe-lab-figure';
      holder.style.setProperty('all', 'initial', 'important');
      holder.style.setProperty('display', 'block', 'important');
      host.appendChild(holder);
      var shadow = holder.attachShadow({ mode: 'open' });
      var box = document.createElement('div');
      box.setAttribute('aria-busy', 'true');
      box.textContent = 'Loading the DualPipe simulator…';
      shadow.appendChild(box);
      var spec = host.getAttribute('data-figure') || '';
      var handle = {
        view: null,
        destroyed: false,
        update: function (next) { if (handle.view) handle.view.update(Object.assign({}, next, { widget: kind })); },
        destroy: function () { handle.destroyed = true; if (handle.view) handle.view.destroy(); holder.remove(); }
      };
      load().then(function (m) {
        if (handle.destroyed) return;
        box.remove();
        handle.view = m.mountFigure(kind, shadow, config || {}, spec);
      }, function (error) {
        box.removeAttribute('aria-busy');
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
      /* Mounts every <div class="lesson-figure" data-figure="name ..."> under root, as the course does. */
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
  var FIGURES = { 'dualpipe-schedule': figure('timeline'), 'dualpipe-sweep': figure('sweep') };
  window.LF.register(FIGURES);
  // The course's lesson-figures.js as published (2026) has no LF: mountLessonFigures() looks a name
  // up in its own table, then in window.AIFS_FIGURES, the hook its figure files fill. Registering
  // there too makes one <script> tag enough for either version of the course page.
  window.AIFS_FIGURES = window.AIFS_FIGURES || {};
  for (var name in FIGURES) if (Object.prototype.hasOwnProperty.call(FIGURES, name)) window.AIFS_FIGURES[name] = FIGURES[name];
})();
