// --load-plugin runs a Python file that registers passes and SM targets.
// RUN: ori-opt %s --load-plugin %S/Inputs/plugin.py -p 'test-count-ops{key=n}' | filecheck %s
// RUN: ori-opt %s --load-plugin %S/Inputs/plugin.py --sm sm_plug_81 | filecheck %s --check-prefix=SM
// RUN: ori-opt --load-plugin %S/Inputs/plugin.py --list-targets | filecheck %s --check-prefix=LIST
// RUN: not ori-opt %s --load-plugin %S/Inputs/raising_plugin.py 2>&1 | filecheck %s --check-prefix=RAISE
// RUN: not ori-opt %s --load-plugin %S/Inputs/empty_plugin.py 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not ori-opt %s --load-plugin %S/Inputs/missing_plugin.py 2>&1 | filecheck %s --check-prefix=MISSING
// Without the plugin its pass is unknown:
// RUN: not ori-opt %s -p test-count-ops 2>&1 | filecheck %s --check-prefix=NOPLUGIN

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    ori.exit
  }
}

// CHECK: builtin.module attributes {ori.target = "sm_80", test.n = 3 : i64}
// SM: builtin.module attributes {ori.target = "sm_plug_81"}
// LIST: sm_80
// LIST-NEXT: sm_plug_81
// RAISE: ori-opt: error: plugin '{{.*}}raising_plugin.py' failed at {{.*}}raising_plugin.py:3: RuntimeError: this plugin is broken on purpose
// EMPTY: ori-opt: error: plugin '{{.*}}empty_plugin.py' registered nothing
// MISSING: ori-opt: error: cannot load plugin '{{.*}}missing_plugin.py': no such file
// NOPLUGIN: Unrecognized passes: ['test-count-ops']
