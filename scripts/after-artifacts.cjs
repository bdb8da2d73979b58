// electron-builder's afterAllArtifactBuild hook: see package-checks.cjs.
module.exports = require('./package-checks.cjs').afterAllArtifactBuild;
