// electron-builder's afterPack hook: see package-checks.cjs.
module.exports = require('./package-checks.cjs').afterPack;
