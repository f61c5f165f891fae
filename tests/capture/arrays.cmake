# capture.arrays.<case>: client-side vertex arrays (src/tracer/arrays.c,
# docs/FORMAT.md "Client-side vertex arrays").  arrays_egl.c draws from
# client arrays (EGL surfaceless, a 4.5 compatibility context or OpenGL ES)
# and writes what each draw reads; arrays_run.py runs it natively, traces
# it with --frame-digests, compares the trace with arrays_check (the
# wip15ClientArray and wip15ClientMemory before every draw, byte for byte)
# and replays it with `wip15 replay --check` (no mismatch, no warning).
# Cases:
#   legacy        vertex, normal, colour (also GL_BGRA), secondary colour, fog,
#                 edge flag, texture coordinates on units 0-2; disabled arrays;
#                 empty draws; elements of every index type
#   invalid       draws GL rejects (mode, count, index type, instance
#                 count, a draw inside glBegin/glEnd): nothing recorded
#   interleaved   glInterleavedArrays (units 0 and 1): memory recorded once;
#                 glMultiDrawArrays
#   generic       glVertexAttribPointer (normalized, unaligned),
#                 glVertexAttribIPointer, glVertexAttribLPointer; all index types
#   restart       GL_PRIMITIVE_RESTART (several indices), _FIXED_INDEX (ubyte,
#                 uint), off, only restart indices
#   range         glDrawRangeElements (start/end wider than the indices),
#                 base vertex (positive, negative)
#   instanced     divisors 1 and 2 with instanced, base-instance and
#                 base-vertex draws
#   multidraw     glMultiDrawArrays, glMultiDrawElements(BaseVertex) with their
#                 per-draw index arrays
#   arrayelement  glArrayElement in glBegin/glEnd and outside
#   buffers       arrays in buffers (nothing recorded), client arrays with the
#                 indices in an element buffer, also one the program keeps
#                 persistently mapped (nothing the program sees changes)
#   indirect      glDrawArraysIndirect, glMultiDrawArraysIndirect (stride),
#                 glDrawElementsIndirect: commands in client memory
#                 (compatibility profile) and in a draw-indirect buffer
#   state         glPush/PopClientAttrib, texture unit 3 set through
#                 glClientActiveTexture, a vertex array object in between
#   frames        traced with --frames 1-: pointers set in frame 0 (not
#                 recorded), draws in frames 1 and 2 recorded (no replay: a
#                 trace that starts mid-program is not replayable)
#   es1           OpenGL ES 1: vertex, colour, point size (OES), texture
#                 coordinates on 2 units
#   es2, es3      OpenGL ES: generic attributes, element buffer, restart, divisor
#   repeat        memory drawn again unchanged: named by wip15ClientMemorySame
#                 (how many per draw is checked), not written again; changed,
#                 small (under 256 bytes) or of another size: written
# In the sanitizer tree (label sanitize) the same cases run with that
# tree's `wip15 trace`, which preloads the ASan runtime and the ASan+UBSan
# libwip15.so into the plain (uninstrumented) arrays_egl; any sanitizer
# report on the tracer's stderr fails the test; no replay there (Mesa's own
# leaks would fail the instrumented replayer), no leak check in the program.
if(WIP15_SANITIZE AND NOT WIP15_ASAN_RUNTIME)
  return()
endif()
set(_w15arr_cases legacy interleaved generic restart range instanced multidraw arrayelement buffers indirect state
    frames invalid es1 es2 es3 repeat)
pkg_check_modules(W15ARR_GL QUIET IMPORTED_TARGET gl)
pkg_check_modules(W15ARR_EGL QUIET IMPORTED_TARGET egl)
if(NOT (W15ARR_GL_FOUND AND W15ARR_EGL_FOUND))
  foreach(_c IN LISTS _w15arr_cases)
    w15_unavailable(SKIP "libgl-dev or libegl-dev missing (run scripts/setup.sh)" capture.arrays.${_c})
  endforeach()
  return()
endif()
add_executable(capture_arrays_egl ${CMAKE_CURRENT_SOURCE_DIR}/arrays_egl.c)
set_target_properties(capture_arrays_egl PROPERTIES OUTPUT_NAME arrays_egl)
target_include_directories(capture_arrays_egl PRIVATE ${PROJECT_SOURCE_DIR}/tests/apps)
target_link_libraries(capture_arrays_egl PRIVATE PkgConfig::W15ARR_GL PkgConfig::W15ARR_EGL)
if(WIP15_SANITIZE)  # a plain program: the runtime comes from LD_PRELOAD
  target_compile_options(capture_arrays_egl PRIVATE -fno-sanitize=all)
  target_link_options(capture_arrays_egl PRIVATE -fno-sanitize=all)
endif()
add_executable(capture_arrays_check ${CMAKE_CURRENT_SOURCE_DIR}/arrays_check.c)
set_target_properties(capture_arrays_check PROPERTIES OUTPUT_NAME arrays_check)
target_link_libraries(capture_arrays_check PRIVATE wip15format)
# Cases the replay cannot play back (src/replay, not the trace; their
# traces are still checked): glArrayElement inside glBegin/glEnd (the replay
# re-points arrays there: GL_INVALID_OPERATION).  (`invalid` replays: a draw
# whose indices the trace does not hold because GL refuses their type gets
# read-only zeros, and GL raises its error.)
set(_w15arr_noreplay arrayelement)
foreach(_c IN LISTS _w15arr_cases)
  set(_opt "")
  if(_c IN_LIST _w15arr_noreplay)
    set(_opt --no-replay)
  endif()
  if(_c STREQUAL "frames")
    set(_opt --no-replay --frames 1-)
  endif()
  if(WIP15_SANITIZE)
    list(APPEND _opt --no-replay)
  endif()
  add_test(NAME capture.arrays.${_c}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/arrays_run.py --wip15 $<TARGET_FILE:wip15>
                   --check $<TARGET_FILE:capture_arrays_check> ${_opt} ${_c} -- $<TARGET_FILE:capture_arrays_egl>)
  set_tests_properties(capture.arrays.${_c} PROPERTIES TIMEOUT 240)
  if(WIP15_SANITIZE)
    set_tests_properties(capture.arrays.${_c} PROPERTIES ENVIRONMENT
      "ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:detect_leaks=0;UBSAN_OPTIONS=print_stacktrace=1")
    w15_sanitize(capture.arrays.${_c})
  endif()
endforeach()

# capture.arrays.damaged: traces of the restart and multidraw cases with one call
# removed, of the buffers and indirect cases with an index or a command in a
# buffer edited (tests/replay/run_replay.py drawcheck): the replay refuses the
# draw that would read past its copies of client memory, never crashes.
add_test(NAME capture.arrays.damaged
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/replay/run_replay.py drawcheck
                 --wip15 $<TARGET_FILE:wip15> -- $<TARGET_FILE:capture_arrays_egl>)
set_tests_properties(capture.arrays.damaged PROPERTIES TIMEOUT 120 LABELS replay)
if(WIP15_SANITIZE)
  set_tests_properties(capture.arrays.damaged PROPERTIES ENVIRONMENT
    "ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:detect_leaks=0")
  w15_sanitize(capture.arrays.damaged)
endif()

