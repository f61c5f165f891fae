# maps.cmake -- mapped buffers (wip15BufferWrite; docs/FORMAT.md "Mapped buffers").
#
# Tests capture.maps.<case> (WIP15_MAPS=auto, the default: persistent
# mappings watched by the kernel's write tracking where it exists, Linux
# 6.7+, else through write-protected pages), capture.maps.<case>.protect
# (WIP15_MAPS=protect: write-protected pages and the SIGSEGV handler, as on
# older kernels) and capture.maps.<case>.compare (WIP15_MAPS=compare:
# compared whole at each consuming call).  syscall_raw (system calls no
# wrapper sees) runs as capture.maps.syscall_raw (WIP15_MAPS=uffd; skipped
# where the kernel lacks it) and .compare: page protection cannot see them.  Each runs maps_app <case> (desktop GL 4.5 core, EGL
# surfaceless, llvmpipe) natively and under LD_PRELOAD=libwip15.so with
# frame digests, then maps_check (the buffers rebuilt from the trace equal
# every read-back; the wip15BufferWrite bytes are those the program
# changed) and `wip15 replay --check` (no mismatch): maps_run.py.
# In the sanitizer tree (label sanitize) the ASan+UBSan libwip15.so is
# preloaded into the plain maps_app, without the replay step.
set(W15MAPS_CASES map_buffer range_write range_invalidate range_unsync flush_explicit
    persistent_coherent persistent_barrier persistent_flush coherent_flush client_storage dsa
    read_only ring_coherent ring_flush ring_barrier sighandler read_mapping threads large implicit_end gpu_writes exit_mapped hot shared syscall_read syscall_more fork)
set(W15MAPS_TESTS capture.maps.syscall_raw capture.maps.syscall_raw.compare)
foreach(c IN LISTS W15MAPS_CASES)
  list(APPEND W15MAPS_TESTS capture.maps.${c} capture.maps.${c}.protect capture.maps.${c}.compare)
endforeach()

pkg_check_modules(W15MAPS_GL QUIET IMPORTED_TARGET opengl)
pkg_check_modules(W15MAPS_EGL QUIET IMPORTED_TARGET egl)
pkg_check_modules(W15MAPS_XXH QUIET IMPORTED_TARGET libxxhash)
if(NOT (W15MAPS_GL_FOUND AND W15MAPS_EGL_FOUND AND W15MAPS_XXH_FOUND))
  w15_unavailable(SKIP "libopengl-dev, libegl-dev or libxxhash-dev missing (scripts/setup.sh)" ${W15MAPS_TESTS})
  return()
endif()
if(NOT TARGET wip15_preload OR NOT TARGET wip15format)
  w15_unavailable(SKIP "libwip15.so or libwip15format is not built here" ${W15MAPS_TESTS})
  return()
endif()
set(_w15maps_preload "$<TARGET_FILE:wip15_preload>")
set(_w15maps_replay --wip15 $<TARGET_FILE:wip15>)
if(WIP15_SANITIZE)
  if(NOT WIP15_ASAN_RUNTIME)
    w15_unavailable(SKIP "no ASan runtime to preload" ${W15MAPS_TESTS})
    return()
  endif()
  set(_w15maps_preload "${WIP15_ASAN_RUNTIME}:$<TARGET_FILE:wip15_preload>")
  set(_w15maps_replay "")
endif()

add_executable(w15_maps_app ${CMAKE_CURRENT_SOURCE_DIR}/maps_app.c)
set_target_properties(w15_maps_app PROPERTIES OUTPUT_NAME maps_app)
target_include_directories(w15_maps_app PRIVATE ${PROJECT_SOURCE_DIR}/tests/apps)
target_link_libraries(w15_maps_app PRIVATE PkgConfig::W15MAPS_GL PkgConfig::W15MAPS_EGL Threads::Threads)
if(WIP15_SANITIZE)  # a plain program: the runtime comes from LD_PRELOAD
  target_compile_options(w15_maps_app PRIVATE -fno-sanitize=all)
  target_link_options(w15_maps_app PRIVATE -fno-sanitize=all)
endif()
add_executable(w15_maps_check ${CMAKE_CURRENT_SOURCE_DIR}/maps_check.c)
target_link_libraries(w15_maps_check PRIVATE wip15format PkgConfig::W15MAPS_XXH)

function(w15maps_test t c mode)
  add_test(NAME ${t}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/maps_run.py
                   --preload ${_w15maps_preload} --check $<TARGET_FILE:w15_maps_check> ${_w15maps_replay}
                   --mode ${mode} -- $<TARGET_FILE:w15_maps_app> ${c})
  set_tests_properties(${t} PROPERTIES TIMEOUT 240 SKIP_RETURN_CODE 77)
endfunction()
foreach(c IN LISTS W15MAPS_CASES)
  w15maps_test(capture.maps.${c} ${c} auto)
  w15maps_test(capture.maps.${c}.protect ${c} protect)
  w15maps_test(capture.maps.${c}.compare ${c} compare)
endforeach()
w15maps_test(capture.maps.syscall_raw syscall_raw uffd)
w15maps_test(capture.maps.syscall_raw.compare syscall_raw compare)
w15_sanitize(${W15MAPS_TESTS})
