// wasm/host-imports.js: tells emcc (--js-library) which functions the core
// imports from its host, so the link accepts them as imports. Emscripten's
// glue is not used (STANDALONE_WASM): js/core-imports.js provides them.
mergeInto(LibraryManager.library, {
  eg_host_parse_number: function () {},
  eg_host_format_number: function () {},
});
