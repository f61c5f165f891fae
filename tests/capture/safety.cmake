# capture.safety.<case>: offsets, invalid arguments, unreadable memory and
# read-back digests (docs/FORMAT.md "Offsets, unreadable memory and readback
# digests").  safety_prog (headless EGL, desktop GL 4.5 compatibility;
# readback_core: a core profile) runs
# natively and under `wip15 trace`; check_safety.py compares the two runs and
# reads the trace with `wip15 dump --json`.  capture.safety.extents checks
# that codegen/unknown_extents.txt is current; capture.safety.pnames_gl that
# glapi/pnames.txt gives no pname fewer values than Mesa writes.  In the sanitizer tree the
# program is a plain one (the ASan runtime comes with libwip15.so).
set(W15_SAFETY_CASES query indirect dispatch elements attribs pixels invalid readback readback_core beginend getters)
list(TRANSFORM W15_SAFETY_CASES PREPEND "capture.safety." OUTPUT_VARIABLE _w15_safety_all)

add_test(NAME capture.safety.extents
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_safety.py --extents
          --gen ${PROJECT_SOURCE_DIR}/codegen/gen.py --root ${PROJECT_SOURCE_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/safety_extents)
set_tests_properties(capture.safety.extents PROPERTIES TIMEOUT 120)

find_library(W15_SAFETY_EGL EGL)
find_library(W15_SAFETY_OPENGL OpenGL)
find_path(W15_SAFETY_XXHASH xxhash.h)
if(NOT TARGET wip15 OR NOT TARGET wip15_preload)
  w15_unavailable(SKIP "the wip15 command or libwip15.so is not built here" ${_w15_safety_all})
  return()
endif()
if(NOT W15_SAFETY_EGL OR NOT W15_SAFETY_OPENGL OR NOT W15_SAFETY_XXHASH)
  w15_unavailable(SKIP "libEGL, libOpenGL or xxhash.h not found (scripts/setup.sh)" ${_w15_safety_all})
  return()
endif()
add_executable(safety_prog ${CMAKE_CURRENT_SOURCE_DIR}/safety_prog.c)
target_include_directories(safety_prog PRIVATE ${W15_SAFETY_XXHASH})
target_link_libraries(safety_prog PRIVATE ${W15_SAFETY_OPENGL} ${W15_SAFETY_EGL})
set(_w15_safety_env "")
if(WIP15_SANITIZE)
  target_compile_options(safety_prog PRIVATE -fno-sanitize=all)
  target_link_options(safety_prog PRIVATE -fno-sanitize=all)
  set(_w15_safety_env "ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:detect_leaks=0")
endif()
# the pname counts of glapi/pnames.txt against what Mesa writes (no tracer;
# a check of data, so not in the sanitizer tree, whose wip15api is
# instrumented and whose Mesa would be too)
if(NOT WIP15_SANITIZE)
  add_executable(pnames_gl ${CMAKE_CURRENT_SOURCE_DIR}/pnames_gl.c)
  target_link_libraries(pnames_gl PRIVATE wip15api ${W15_SAFETY_OPENGL} ${W15_SAFETY_EGL})
  target_include_directories(pnames_gl PRIVATE ${PROJECT_SOURCE_DIR}/src/common)
  add_test(NAME capture.safety.pnames_gl COMMAND pnames_gl)
  set_tests_properties(capture.safety.pnames_gl PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
                       ENVIRONMENT "EGL_PLATFORM=surfaceless")
endif()
foreach(c IN LISTS W15_SAFETY_CASES)
  add_test(NAME capture.safety.${c}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_safety.py
            --wip15 $<TARGET_FILE:wip15> --prog $<TARGET_FILE:safety_prog>
            --work ${CMAKE_CURRENT_BINARY_DIR}/safety_${c} ${c})
  set_tests_properties(capture.safety.${c} PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
  if(_w15_safety_env)
    set_tests_properties(capture.safety.${c} PROPERTIES ENVIRONMENT "${_w15_safety_env}")
  endif()
  w15_sanitize(capture.safety.${c})
endforeach()
