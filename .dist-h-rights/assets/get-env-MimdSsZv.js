function e(){return`development`}export{e as t};
//# sourceMappingURL=get-env-MimdSsZv.js.map